// The differential test's upstream side (plangate-gc test fixture; MIT, our
// own code — no upstream text). A long-lived Node child of
// stores_diff_test.go: it reads one JSON request per line on stdin and
// answers one JSON line on stdout.
//
//   SIM_NOW=… node --import ../fakeclock.mjs readers.mjs UPSTREAM_DIR
//
//   {"op":"before","root":R,"now":ISO,"tz":TZ,"retentionDays":D}
//       asks upstream's readers about R's stores at instant now (the fake
//       clock) in time zone TZ, and remembers the answers (and river-gc's
//       --retention-days D);
//   {"op":"after","root":R,"gc":{"memory":N,"ledger":M}}
//       asks again, after river-gc --force reported removing N memory
//       entries and M ledger lines, and answers {"problems":[…],"stats":{…}}:
//       every way the second reading breaks SPEC D3/D4 as upstream sees it.
//
// The readers are upstream's own: loadMemory and queryMemory
// (src/lib/riverbed-memory.mjs), findActiveSuppressions
// (src/lib/suppression.mjs) and scripts/compare-eval-ledger.mjs itself,
// imported in this process once per reading (see compareLedger).
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';
import { check } from './oracle.mjs';

const upstreamDir = path.resolve(process.argv[2] ?? '');
const lib = (p) => import(pathToFileURL(path.join(upstreamDir, p)).href);
const { loadMemory, queryMemory } = await lib('src/lib/riverbed-memory.mjs');
const { findActiveSuppressions } = await lib('src/lib/suppression.mjs');
const compareURL = pathToFileURL(path.join(upstreamDir, 'scripts', 'compare-eval-ledger.mjs')).href;

const INDEX = ['.river', 'memory', 'index.json'];
const LEDGER = ['artifacts', 'evals', 'results.jsonl'];

// attempt runs f and returns its value, or what it threw as {threw: text}.
function attempt(f) {
  try {
    return { value: f() };
  } catch (err) {
    return { threw: String(err?.message ?? err) };
  }
}

// compareLedger runs upstream's compare-eval-ledger.mjs --json on a ledger
// in this process: the script reads process.argv, writes to process.stdout
// and process.stderr and ends with process.exit, so those four are lent to
// it for one run. Each run imports a fresh instance of the module (a query
// string makes the URL new), which costs ~40 KB that is never freed: the
// Go side restarts this process every few hundred cases.
let runs = 0;
async function compareLedger(ledger) {
  const saved = { argv: process.argv, exit: process.exit, out: process.stdout.write, err: process.stderr.write };
  let stdout = '';
  let stderr = '';
  let finished;
  const exited = new Promise((resolve) => (finished = resolve));
  process.argv = [process.argv[0], 'compare-eval-ledger.mjs', '--ledger', ledger, '--json'];
  process.exit = (code) => finished(code ?? 0);
  process.stdout.write = (s) => ((stdout += s), true);
  process.stderr.write = (s) => ((stderr += s), true);
  try {
    await import(`${compareURL}?run=${++runs}`);
    return { exit: await exited, stdout, stderr };
  } finally {
    process.argv = saved.argv;
    process.exit = saved.exit;
    process.stdout.write = saved.out;
    process.stderr.write = saved.err;
  }
}

// read takes one reading of a root's stores with upstream's readers; the
// script's answer depends on the ledger's bytes alone, so a ledger with the
// bytes of an earlier reading takes that reading's answer.
async function read(root, earlier) {
  const indexPath = path.join(root, ...INDEX);
  const ledgerPath = path.join(root, ...LEDGER);
  const bytes = (p) => (fs.existsSync(p) ? fs.readFileSync(p) : null);
  const r = { indexBytes: bytes(indexPath), ledgerBytes: bytes(ledgerPath) };
  r.index = attempt(() => loadMemory(indexPath));
  if (r.ledgerBytes === null) r.compare = null;
  else if (earlier?.ledgerBytes?.equals(r.ledgerBytes)) r.compare = earlier.compare;
  else r.compare = await compareLedger(ledgerPath);
  return r;
}

const cases = new Map();
const upstream = { queryMemory, findActiveSuppressions };
const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  const req = JSON.parse(line);
  let answer;
  if (req.op === 'before') {
    process.env.TZ = req.tz;
    globalThis.__simClock.set(Date.parse(req.now));
    cases.set(req.root, { now: req.now, retentionDays: req.retentionDays, before: await read(req.root) });
    answer = { ok: true };
  } else if (req.op === 'after') {
    const c = cases.get(req.root);
    cases.delete(req.root);
    const after = await read(req.root, c.before);
    answer = check(upstream, c, after, req.gc);
  } else {
    throw new Error(`readers.mjs: unknown op ${req.op}`);
  }
  process.stdout.write(JSON.stringify(answer) + '\n');
}
