// Asks upstream River Review's own readers (queryMemory for every type x phase x tag, with and without inactive entries; findActiveSuppressions for every file named and all at once; compare-eval-ledger, markdown and --json) about DIR's stores, and marks each entry live as SPEC D3 defines it. SIM_NOW=... node --import fakeclock.mjs ask.mjs UPSTREAM DIR [EARLIER-ANSWER]
// (plangate-gc test fixture; MIT, our own code — no upstream text.)
import fs from 'node:fs'; import path from 'node:path'; import { pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';
const [up, repo, spaceFile] = process.argv.slice(2);
const lib = (p) => import(pathToFileURL(path.join(up, p)).href);
const { loadMemory, queryMemory } = await lib('src/lib/riverbed-memory.mjs');
const { findActiveSuppressions } = await lib('src/lib/suppression.mjs');
const out = {};
const idx = path.join(repo, '.river/memory/index.json');
let index; try { index = loadMemory(idx); } catch (e) { out.loadError = String(e.name); }
const fp = (e) => JSON.stringify(e);
const tryq = (f) => { try { return f(); } catch (e) { return 'THROW ' + e.name; } };
if (index) {
  let space;
  if (spaceFile) space = JSON.parse(fs.readFileSync(spaceFile, 'utf8')).space;
  else {
    const ents = Array.isArray(index.entries) ? index.entries : [];
    const strs = (xs) => [...new Set(xs.filter((x) => typeof x === 'string'))].sort();
    const files = strs(ents.flatMap((e) => Array.isArray(e?.metadata?.relatedFiles) ? e.metadata.relatedFiles : []));
    const tags = strs(ents.flatMap((e) => Array.isArray(e?.metadata?.tags) ? e.metadata.tags : []));
    space = { types: strs(ents.map((e) => e?.type)), phases: strs(ents.map((e) => e?.metadata?.phase)), tags, files };
  }
  out.space = space;
  out.q = {};
  for (const inc of [false, true]) for (const type of [undefined, ...space.types]) for (const phase of [undefined, ...space.phases]) for (const t of [undefined, ...space.tags]) {
    const k = `${inc}|${type}|${phase}|${t}`;
    out.q[k] = tryq(() => queryMemory(index, { type, phase, tags: t === undefined ? undefined : [t], includeInactive: inc }).map(fp));
  }
  out.sup = {};
  for (const f of [...space.files.map((f) => [f]), space.files, ['zz/other.js']]) out.sup[JSON.stringify(f)] = tryq(() => findActiveSuppressions(index, f).map(fp));
  // upstream liveness per entry (D3)
  const now = new Date(); const nowIso = now.toISOString();
  const applied = new Set();
  for (const v of Object.values(out.sup)) if (Array.isArray(v)) v.forEach((x) => applied.add(x));
  out.entries = tryq(() => index.entries.map((e) => {
    const f = fp(e);
    const t = e?.type;
    let live = false;
    if (t !== 'review' && t !== 'eval_result' && ((e?.status ?? 'active') === 'active')) {
      const exp1 = e.expiresAt && new Date(e.expiresAt) <= now;
      const exp2 = e.context?.expiresAt && e.context.expiresAt < nowIso;
      live = !exp1 && !exp2;
    }
    if (applied.has(f)) live = true;
    return { f, live };
  }));
}
const ledger = path.join(repo, 'artifacts/evals/results.jsonl');
const cmp = (extra) => { try { return [0, execFileSync(process.execPath, [path.join(up, 'scripts/compare-eval-ledger.mjs'), '--ledger', ledger, ...extra], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })]; } catch (e) { return [e.status, e.stdout]; } };
if (fs.existsSync(ledger)) out.ledger = [cmp([]), cmp(['--json'])];
process.stdout.write(JSON.stringify(out) + '\n');
