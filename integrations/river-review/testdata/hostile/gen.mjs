// A generator of hostile Riverbed indexes and eval ledgers of its own: ids that are numbers, -0, NFC/NFD twins, lone surrogates, toString/__proto__; types with spaces, BOMs, escapes; truthy and falsy context.active values; expiries as numbers, arrays, objects, odd ISO forms; repeated and case-variant keys; resurfaces and supersessions referring to each other. node gen.mjs SEED DIR
// (plangate-gc test fixture; MIT, our own code — no upstream text.)
import fs from 'node:fs'; import path from 'node:path';
let s = Number(process.argv[2]) >>> 0;
const r = () => { s = (s + 0x6d2b79f5) >>> 0; let t = s; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
const pick = (a) => a[Math.floor(r() * a.length)];
const dir = process.argv[3];
const ids = ['s1', 's2', 'caf\u00e9', 'cafe\u0301', '1', 'a\u2028', 'toString', '__proto__', 'S1', 's1 ', '\ufeffs1', 'r1', 'd1'];
const raw = (x) => ({ __raw: x });
const idv = () => pick([...ids, ...ids, 1, 0, -0, raw('1.0'), raw('1e0'), null, true, raw('"s\\u0031"'), raw('"\\ud800"'), raw('"\\udfff"')]);
const types = ['suppression', 'suppression', 'resurface', 'resurface', 'decision', 'review', 'eval_result', 'pattern', 'review ', 'Review', '\ufeffreview', raw('"r\\u0065view"'), raw('"suppressio\\u006e"'), 'wontfix', null, 5];
const statuses = [undefined, undefined, 'active', 'archived', 'superseded', null, 'Active', 'active ', raw('"\\u0061ctive"'), 0, ''];
const truthy = [true, true, false, 1, 0, raw('-0'), raw('1e-400'), raw('0e5'), 'false', '', '0', [], {}, null, raw('1e400')];
const dates = [undefined, undefined, '2020-01-01T00:00:00Z', '2030-01-01T00:00:00Z', '2026-06-01T00:00:00Z', '2026-06-01T00:00:00.000Z', '2026-05-31T23:59:59.999Z', '2026-06-01', 5, 0, [], ['2020'], {}, true, '', 'Invalid Date', '-000001-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '2020-01-01T00:00:00', '2020-01-01T00:00:00+01:00', '2026-06-01T00:30:00+01:00', raw('-9e15'), raw('1e999'), '2020-02-30', '2020-01-01t00:00:00z', '0', '1'];
const files = ['src/a.js', 'src/b.js', 'lib/x.js', 'src/a.js ', 'SRC/a.js'];
const scopes = [undefined, 'file', 'global', 'subsystem', 'Global', '', null];
const n = 3 + Math.floor(r() * 12);
const ents = [];
for (let i = 0; i < n; i++) {
  const e = { id: idv(), type: pick(types) };
  if (r() < 0.3) e.id = 'e' + i;
  const st = pick(statuses); if (st !== undefined) e.status = st;
  e.title = 't'; e.content = 'c';
  const upd = pick(['2020-01-01T00:00:00Z', '2026-05-31T00:00:00Z', '2020-01-01T00:00:00.000Z', 'x', undefined]);
  e.metadata = { createdAt: '2020-01-01T00:00:00Z', author: 'a' };
  if (upd !== undefined) e.metadata.updatedAt = upd;
  if (r() < 0.8) e.metadata.relatedFiles = [pick(files)];
  if (r() < 0.2) e.metadata.relatedFiles = pick([[], 'src/a.js', [1], null]);
  if (r() < 0.5) e.metadata.tags = [pick(['x', 'y'])];
  const ex = pick(dates); if (ex !== undefined && r() < 0.4) e.expiresAt = ex;
  if (r() < 0.3) e.supersededBy = idv();
  if (r() < 0.8) {
    const c = {};
    if (r() < 0.8) c.active = pick(truthy);
    const cx = pick(dates); if (cx !== undefined) c.expiresAt = cx;
    const sc = pick(scopes); if (sc !== undefined) c.scope = sc;
    if (r() < 0.6) { c.action = pick(['revoke', 'revoke', 'Revoke', 'revoke ', raw('"r\\u0065voke"')]); c.suppressionId = idv(); }
    e.context = pick([c, c, c, c, 'str', [], null]);
  }
  ents.push(e);
}
// duplicate an entry sometimes
if (r() < 0.3) ents.push(JSON.parse(JSON.stringify(pick(ents), (k, v) => v)));
// serialize with raw tokens and sometimes repeated / case-variant keys
const ser = (v, ind) => {
  if (v && typeof v === 'object' && '__raw' in v) return v.__raw;
  if (Array.isArray(v)) return '[' + v.map((x) => ser(x, ind)).join(',') + ']';
  if (v && typeof v === 'object') {
    const parts = Object.entries(v).map(([k, x]) => JSON.stringify(k) + ':' + ser(x, ind));
    if (r() < 0.15) parts.unshift(pick(['"type":"review"', '"Type":"review"', '"status":"archived"', '"STATUS":"archived"', '"context":{"active":false}', '"expiresAt":"2000-01-01T00:00:00Z"', '"ID":"zz"', '"id":"s1"']));
    if (r() < 0.1) parts.push(pick(['"Type":"review"', '"Status":"archived"', '"Active":false', '"EXPIRESAT":"2000-01-01"', '"supersededBy":"s1"']));
    return '{' + parts.join(',') + '}';
  }
  return JSON.stringify(v);
};
fs.mkdirSync(path.join(dir, '.river/memory'), { recursive: true });
fs.mkdirSync(path.join(dir, 'artifacts/evals'), { recursive: true });
let text = '{"version":"1","entries":[' + ents.map((e) => ser(e)).join(',\n') + ']}\n';
if (r() < 0.2) text = JSON.stringify(JSON.parse(text), null, 2) + '\n';
fs.writeFileSync(path.join(dir, '.river/memory/index.json'), text);
// The ledger: lines of odd timestamps, kinds and separators, so that the
// newest two lines (compare-eval-ledger's) are sometimes blank to trim(),
// invalid, not objects, or carry a BOM or a repeated "timestamp".
const stamps = ['2020-01-01T00:00:00Z', '2020-01-02T00:00:00.000Z', '2026-05-31T00:00:00Z', '2020-01-01t00:00:00z', '2020-01-01 00:00:00Z',
  '2020-01-01T23:59:60Z', '2020-02-30T00:00:00Z', '-000001-01-01T00:00:00Z', '+010000-01-01T00:00:00Z', '2020-01-01', 0, null, ['2020'], 'x'];
const lines = [];
const nl = 2 + Math.floor(r() * 10);
for (let i = 0; i < nl; i++) {
  let line = '{"timestamp":' + JSON.stringify(pick(stamps)) + ',"scores":{"a":' + Math.floor(r() * 3) + '}}';
  const k = r();
  if (k < 0.06) line = '{"timestamp":"2020-01-01T00:00:00Z","timestamp":"2030-01-01T00:00:00Z"}';
  else if (k < 0.1) line = '{"Timestamp":"2020-01-01T00:00:00Z","scores":{"a":1}}';
  else if (k < 0.14) line = pick(['null', '1', '[]', '"x"', '{bad', '']);
  else if (k < 0.18) line = pick(['\ufeff', '\u00a0', '\u2028', '\u3000', '\u000b']) + line + pick(['', ' ', '\u00a0', '\ufeff']);
  else if (k < 0.2) line = pick(['\ufeff', '\u00a0\u00a0', '\u2029', '\u0085', '\t \r']);
  lines.push(line);
}
const seps = ['\n', '\n', '\n', '\r\n', '\n\n'];
let ledger = '';
for (const l of lines) ledger += l + pick(seps);
if (r() < 0.15) ledger = ledger.replace(/\n$/, '');
if (r() < 0.8) fs.writeFileSync(path.join(dir, 'artifacts/evals/results.jsonl'), ledger);
