// Compares two answers of ask.mjs, before and after river-gc --force: suppressions and the ledger comparison identical, the entries after a subsequence of those before, no live entry removed, every queryMemory answer short of exactly the removed entries. Prints one problem a line; exit 1 if any. node check.mjs BEFORE AFTER
// (plangate-gc test fixture; MIT, our own code — no upstream text.)
import fs from 'node:fs';
const [b, a] = [JSON.parse(fs.readFileSync(process.argv[2])), JSON.parse(fs.readFileSync(process.argv[3]))];
const p = [];
if (JSON.stringify(b.sup) !== JSON.stringify(a.sup)) p.push('suppressions differ: ' + JSON.stringify(b.sup).slice(0,300) + ' VS ' + JSON.stringify(a.sup).slice(0,300));
if (JSON.stringify(b.ledger) !== JSON.stringify(a.ledger)) p.push('ledger differs: ' + JSON.stringify(b.ledger).slice(0,400) + ' VS ' + JSON.stringify(a.ledger).slice(0,400));
if (b.loadError !== a.loadError) p.push('load ' + b.loadError + ' -> ' + a.loadError);
if (Array.isArray(b.entries) && Array.isArray(a.entries)) {
  // removed multiset
  const left = a.entries.map((x) => x.f); const removed = [];
  let j = 0;
  for (const e of b.entries) { if (j < left.length && left[j] === e.f) { j++; } else { removed.push(e); } }
  if (j !== left.length) p.push('after is not a subsequence of before');
  for (const r of removed) if (r.live) p.push('LIVE removed: ' + r.f.slice(0, 300));
  const rem = new Map(); removed.forEach((r) => rem.set(r.f, (rem.get(r.f) ?? 0) + 1));
  for (const k of Object.keys(b.q)) {
    const bq = b.q[k], aq = a.q[k];
    if (!Array.isArray(bq)) { if (JSON.stringify(bq) !== JSON.stringify(aq)) p.push('query ' + k + ' ' + bq + ' -> ' + aq); continue; }
    const m = new Map(rem); const exp = bq.filter((f) => { const c = m.get(f) ?? 0; if (c > 0) { m.set(f, c - 1); return false; } return true; });
    if (JSON.stringify(exp) !== JSON.stringify(aq)) p.push('queryMemory ' + k + ' differs');
  }
  console.error('removed entries:', removed.length);
} else if (JSON.stringify(b.entries) !== JSON.stringify(a.entries)) p.push('entries ' + JSON.stringify(b.entries).slice(0,200) + ' -> ' + JSON.stringify(a.entries).slice(0,200));
for (const x of p) console.log(x);
process.exit(p.length ? 1 : 0);
