// Simulates upstream River Review's own writers over a span of days
// (plangate-gc test fixture; MIT, our own code — no upstream text).
//
//   SIM_NOW=2026-01-01T00:00:00Z SIM_SEED=1 \
//   node --import ./fakeclock.mjs simulate-year.mjs --repo DIR --log FILE \
//     [--days 365] [--evals-per-day 2] [--memory 365] [--suppressions 159] \
//     [--runs 530] [--persist-evals true]
//
// DIR is a copy of upstream's tree (with node_modules): every write goes
// through upstream's own functions imported from there, so the stores land
// where upstream puts them:
//   - Riverbed memory: appendEntry, supersede, expireEntries
//     (src/lib/riverbed-memory.mjs), createSuppression, revokeSuppression
//     (src/lib/suppression.mjs) into DIR/.river/memory/index.json;
//   - saved review runs: buildRunRecord + saveRunRecord
//     (src/lib/result-store.mjs) into DIR/.river/runs/;
//   - the eval ledger: appendLedger exported by scripts/evaluate-all.mjs
//     (it appends to DIR/artifacts/evals/results.jsonl). evaluate-all builds
//     its envelope inside main(), which runs the real evaluations; that is
//     not importable as a function, so the envelope is built here in exactly
//     its shape (version, timestamp, commit, branch, scores, snapshots,
//     results, status) and the Go test validates every line against
//     schemas/eval-ledger-entry.schema.json. `--persist-memory`'s entry is
//     built the same way and written with appendEntry.
//
// The clock is fakeclock.mjs: each event runs at its simulated instant, and
// files the simulator writes get that instant as their mtime (as if the
// year had really passed). FILE receives the simulator's log: every
// memory entry with its type, creation and the lifecycle events applied to
// it, every ledger line with its timestamp, every saved run with its path
// and timestamp, and the instant the simulation ended.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const clock = globalThis.__simClock;
if (!clock) throw new Error('simulate-year: load fakeclock.mjs with --import first');
const rnd = clock.random;

function parseArgs(argv) {
  const a = {
    days: 365,
    evalsPerDay: 2,
    memory: 365,
    suppressions: 159,
    runs: 530,
    persistEvals: true,
  };
  const names = {
    '--repo': 'repo',
    '--log': 'log',
    '--days': 'days',
    '--evals-per-day': 'evalsPerDay',
    '--memory': 'memory',
    '--suppressions': 'suppressions',
    '--runs': 'runs',
    '--persist-evals': 'persistEvals',
  };
  for (let i = 0; i < argv.length; i += 2) {
    const key = names[argv[i]];
    if (!key || i + 1 >= argv.length) throw new Error(`simulate-year: bad argument ${argv[i]}`);
    const v = argv[i + 1];
    a[key] = key === 'repo' || key === 'log' ? v : key === 'persistEvals' ? v === 'true' : Number(v);
    if (typeof a[key] === 'number' && !(Number.isInteger(a[key]) && a[key] >= 0)) {
      throw new Error(`simulate-year: ${argv[i]} wants a whole number ≥ 0`);
    }
  }
  if (!a.repo || !a.log) throw new Error('simulate-year: --repo and --log are required');
  return a;
}

const args = parseArgs(process.argv.slice(2));
const repo = path.resolve(args.repo);
const lib = (p) => import(pathToFileURL(path.join(repo, p)).href);
const memory = await lib('src/lib/riverbed-memory.mjs');
const suppression = await lib('src/lib/suppression.mjs');
const store = await lib('src/lib/result-store.mjs');
const { appendLedger } = await lib('scripts/evaluate-all.mjs');
const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8'));

const indexPath = path.join(repo, '.river', 'memory', 'index.json');
const ledgerPath = path.join(repo, 'artifacts', 'evals', 'results.jsonl');
const runsDir = path.join(repo, '.river', 'runs');
const DAY = 86400000;
const start = clock.get();

const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
const hex = (n) => Array.from({ length: n }, () => Math.floor(rnd() * 16).toString(16)).join('');
const between = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));

const FILES = [
  'src/auth/handler.ts',
  'src/auth/session.ts',
  'src/lib/utils.mjs',
  'src/lib/diff.mjs',
  'src/api/routes.ts',
  'src/api/schema.ts',
  'runners/cli/index.mjs',
  'scripts/release.sh',
  'docs/guide.md',
  'package.json',
];
const PHASES = ['upstream', 'midstream', 'downstream'];
const TAGS = ['security', 'performance', 'style', 'testing', 'api', 'docs', 'ci', 'deps'];
const KNOWLEDGE = ['adr', 'decision', 'pattern', 'wontfix'];
const SKILLS = ['security', 'perf', 'adr', 'api', 'tests', 'deps', 'docs', 'ci', 'style', 'i18n', 'a11y', 'infra'].map(
  (s, i) => `rr-${PHASES[i % 3]}-${s}-001`
);
const CASES = Array.from({ length: 20 }, (_, i) => `case-${String(i + 1).padStart(2, '0')}`);

// --- the schedule: every event at its instant, in a fixed order --------------

const events = [];
let seq = 0;
const at = (day, hour) => start + day * DAY + hour * 3600000 + between(0, 3599) * 1000;
const spread = (n, hour, kind) => {
  for (let i = 0; i < n; i++) {
    const day = Math.floor((i * args.days) / Math.max(n, 1));
    events.push({ at: at(day, hour), seq: seq++, kind });
  }
};
for (let d = 0; d < args.days; d++) {
  for (let k = 0; k < args.evalsPerDay; k++) {
    events.push({ at: at(d, 3 + (k * 12) % 20), seq: seq++, kind: 'eval' });
  }
  events.push({ at: start + d * DAY + 23 * 3600000, seq: seq++, kind: 'expire' });
}
spread(args.memory, 10, 'memory');
spread(args.suppressions, 12, 'suppression');
spread(args.runs, 15, 'run');
const end = start + args.days * DAY;

// --- the log ------------------------------------------------------------------

const log = { params: args, start: new Date(start).toISOString(), end: '', memory: [], ledger: [], runs: [] };
const byId = new Map();
function remember(entry) {
  const rec = {
    id: entry.id,
    type: entry.type,
    createdAt: entry.metadata.createdAt,
    status: 'active',
  };
  if (entry.expiresAt) rec.expiresAt = entry.expiresAt;
  if (entry.context?.expiresAt) rec.contextExpiresAt = entry.context.expiresAt;
  if (entry.type === 'suppression') rec.relatedFiles = entry.metadata.relatedFiles;
  if (entry.type === 'resurface') rec.revokes = entry.context.suppressionId;
  log.memory.push(rec);
  byId.set(rec.id, rec);
  return rec;
}

// --- the writers ----------------------------------------------------------------

let scores = null;
function evalRun() {
  // evaluate-all's score keys: `${subEval}_${metric}`.
  const drift = (v, lo, hi) => Math.min(hi, Math.max(lo, v + (rnd() - 0.5) * 0.04));
  scores = scores ?? {
    planner_exactMatch: 0.6,
    planner_top1Match: 0.75,
    planner_coverage: 0.8,
    planner_mrr: 0.7,
    fixtures_passRate: 0.9,
    fixtures_falsePositiveRate: 0.05,
    fixtures_evidenceRate: 0.85,
    regression_policyPassRate: 0.95,
    regression_memoryRecallRate: 0.8,
    regression_suppressionAccuracy: 0.9,
    regression_resurfaceAccuracy: 0.9,
    meta_errorCount: 0,
  };
  for (const k of Object.keys(scores)) {
    scores[k] = k === 'meta_errorCount' ? (rnd() < 0.1 ? 1 : 0) : drift(scores[k], 0, 1);
  }
  const skills = SKILLS;
  const perSkillFp = {};
  for (const s of skills) {
    const guards = between(10, 20);
    const fps = between(0, 3);
    perSkillFp[s] = { guards, fps, fpRate: fps / guards };
  }
  const results = ['planner', 'fixtures', 'regression', 'meta'].map((name) => ({
    name,
    pass: rnd() > 0.05,
    errors: [],
  }));
  const envelope = {
    version: pkg.version,
    timestamp: new Date().toISOString(),
    commit: hex(7),
    branch: 'main',
    scores: { ...scores },
    snapshots: {
      severity: { midstream: { blocker: between(0, 2), warning: between(3, 9), nit: between(5, 15) } },
      top1PerCase: Object.fromEntries(CASES.map((c) => [c, pick(skills)])),
      perSkillFp,
    },
    results,
    status: results.every((r) => r.pass) ? 'pass' : 'fail',
    description: undefined,
  };
  appendLedger(envelope);
  log.ledger.push({ line: log.ledger.length + 1, timestamp: envelope.timestamp });
  if (args.persistEvals) {
    const entry = {
      id: `eval-${envelope.commit}-${Date.now()}`,
      type: 'eval_result',
      title: `Eval run ${envelope.commit}`,
      content: JSON.stringify(envelope),
      metadata: {
        createdAt: envelope.timestamp,
        author: 'evaluate-all',
        tags: ['eval', envelope.status],
        summary: `${envelope.status}: ${Object.keys(envelope.scores).length} metrics`,
      },
    };
    memory.appendEntry(indexPath, entry);
    remember(entry);
  }
}

let memorySeq = 0;
function memoryEntry() {
  const type = rnd() < 0.4 ? 'review' : pick(KNOWLEDGE);
  const tags = [...new Set([pick(TAGS), pick(TAGS)])];
  const entry = {
    id: `${type}-${String(++memorySeq).padStart(4, '0')}-${hex(6)}`,
    type,
    title: `${type} ${memorySeq}`,
    content: `${type} note ${memorySeq}: ${hex(32)} `.repeat(between(2, 12)),
    metadata: {
      createdAt: new Date().toISOString(),
      author: pick(['river-review', 'alice', 'bob']),
      phase: pick(PHASES),
      tags,
      relatedFiles: [...new Set([pick(FILES), pick(FILES)])],
    },
  };
  // Some knowledge is meant to lapse.
  if (type !== 'review' && rnd() < 0.25) {
    entry.expiresAt = new Date(Date.now() + between(20, 200) * DAY).toISOString();
  }
  memory.appendEntry(indexPath, entry);
  const rec = remember(entry);
  // A new ADR or decision sometimes replaces an older active one of its type.
  if (type === 'adr' || type === 'decision') {
    const older = log.memory.filter((m) => m.type === type && m.status === 'active' && m.id !== rec.id);
    if (older.length && rnd() < 0.4) {
      const old = pick(older);
      memory.supersede(indexPath, old.id, rec.id);
      old.status = 'superseded';
      old.supersededBy = rec.id;
      old.supersededAt = new Date().toISOString();
    }
  }
}

const revocations = [];
function suppressionEntry() {
  const scope = pick(['file', 'file', 'file', 'subsystem', 'global']);
  const entry = suppression.createSuppression({
    indexPath,
    findingId: `finding-${hex(8)}`,
    fingerprint: hex(16),
    feedbackType: pick(['false_positive', 'accepted_risk', 'wont_fix', 'not_relevant']),
    severity: pick(['minor', 'major']),
    filePaths: [pick(FILES)],
    rationale: `suppressed after review: ${hex(24)}`,
    scope,
    expiresAt: rnd() < 0.45 ? new Date(Date.now() + between(14, 180) * DAY).toISOString() : undefined,
  });
  remember(entry);
  if (rnd() < 0.2) {
    revocations.push({ at: Date.now() + between(3, 120) * DAY, id: entry.id });
  }
}

function revoke(id) {
  const entry = suppression.revokeSuppression(indexPath, id, { reason: 'finding is real after all' });
  remember(entry);
}

function expire() {
  const now = new Date();
  const due = log.memory.filter(
    (m) => m.expiresAt && new Date(m.expiresAt) <= now && m.status === 'active'
  );
  const n = memory.expireEntries(indexPath);
  if (n !== due.length) throw new Error(`expireEntries archived ${n}, the log expected ${due.length}`);
  for (const m of due) {
    m.status = 'archived';
    m.archivedAt = now.toISOString();
  }
}

async function run() {
  const changedFiles = [...new Set([pick(FILES), pick(FILES), pick(FILES)])];
  const findings = Array.from({ length: between(0, 6) }, (_, i) => ({
    id: `f-${hex(8)}`,
    ruleId: pick(['security/injection', 'perf/n-plus-one', 'style/naming']),
    title: `finding ${i + 1}`,
    message: `Finding: something on ${pick(changedFiles)} ${hex(16)}`,
    severity: pick(['blocker', 'warning', 'nit']),
    file: pick(changedFiles),
    line: between(1, 400),
  }));
  const record = store.buildRunRecord(
    {
      repoRoot: '/home/runner/work/river-reviewer/river-reviewer',
      changedFiles,
      findings,
      plan: { phase: pick(PHASES), reviewMode: 'medium' },
      mergeBase: hex(40),
      defaultBranch: 'main',
    },
    {}
  );
  const file = await store.saveRunRecord(record, { storeDir: runsDir });
  const t = new Date(record.timestamp);
  fs.utimesSync(file, t, t);
  log.runs.push({ path: path.relative(repo, file), timestamp: record.timestamp });
}

// --- the year ----------------------------------------------------------------------

events.sort((x, y) => x.at - y.at || x.seq - y.seq);
let next = 0;
for (const ev of events) {
  revocations.sort((x, y) => x.at - y.at);
  while (next < revocations.length && revocations[next].at <= ev.at) {
    if (revocations[next].at < end) {
      clock.set(revocations[next].at);
      revoke(revocations[next].id);
    }
    next++;
  }
  clock.set(ev.at);
  if (ev.kind === 'eval') evalRun();
  else if (ev.kind === 'expire') expire();
  else if (ev.kind === 'memory') memoryEntry();
  else if (ev.kind === 'suppression') suppressionEntry();
  else await run();
}

// The stores were last written at their last event.
const lastWrite = (p, times) => {
  if (!fs.existsSync(p) || !times.length) return;
  const t = new Date(Math.max(...times.map((s) => Date.parse(s))));
  fs.utimesSync(p, t, t);
};
lastWrite(indexPath, log.memory.flatMap((m) => [m.createdAt, m.supersededAt, m.archivedAt].filter(Boolean)));
lastWrite(ledgerPath, log.ledger.map((l) => l.timestamp));

log.end = new Date(end).toISOString();
fs.writeFileSync(args.log, JSON.stringify(log, null, 2) + '\n');
