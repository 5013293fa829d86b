// Asks upstream River Review's own readers about a repository's stores and
// prints their answers as one canonical JSON document (plangate-gc test
// fixture; MIT, our own code — no upstream text).
//
//   SIM_NOW=<instant> node --import ./fakeclock.mjs read-stores.mjs --repo DIR
//
// DIR is a copy of upstream's tree holding the stores (.river/memory,
// artifacts/evals); the readers are imported from it and the clock is
// fakeclock.mjs, so "now" is the instant under test. The document:
//   live:     queryMemory for every type × phase × tag set present (active
//             entries only) and findActiveSuppressions for every file path
//             named in the store and for all of them at once: lists of ids;
//   entries:  a sha256 of JSON.stringify(entry) for every entry any live
//             answer returned (so a live entry changed in place shows);
//   inactive: the same queries with includeInactive: true;
//   ledger:   scripts/compare-eval-ledger.mjs run as upstream's nightly CI
//             runs it (markdown, from DIR) and with --json: exit code, stdout;
//   schema:   index.json against schemas/riverbed-index.schema.json and each
//             ledger line against schemas/eval-ledger-entry.schema.json
//             (ajv 2020 + ajv-formats from upstream's node_modules): the
//             errors, by place.
// Keys are sorted wherever the order is not the readers' own.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const argv = process.argv.slice(2);
if (argv.length !== 2 || argv[0] !== '--repo') throw new Error('read-stores: usage: --repo DIR');
const repo = path.resolve(argv[1]);
const lib = (p) => import(pathToFileURL(path.join(repo, p)).href);
const { loadMemory, queryMemory } = await lib('src/lib/riverbed-memory.mjs');
const { findActiveSuppressions } = await lib('src/lib/suppression.mjs');

const indexPath = path.join(repo, '.river', 'memory', 'index.json');
const ledgerPath = path.join(repo, 'artifacts', 'evals', 'results.jsonl');
const index = loadMemory(indexPath);

const sorted = (xs) => [...new Set(xs)].sort();
const sha = (v) => crypto.createHash('sha256').update(JSON.stringify(v)).digest('hex');
const types = sorted(index.entries.map((e) => e.type));
const phases = sorted(index.entries.map((e) => e.metadata?.phase).filter(Boolean));
const tagSets = new Map();
for (const e of index.entries) {
  const tags = e.metadata?.tags ?? [];
  for (const t of tags) tagSets.set(JSON.stringify([t]), [t]);
  if (tags.length > 1) tagSets.set(JSON.stringify(tags), tags);
}
tagSets.set('[]', []);
const tagKeys = [...tagSets.keys()].sort();

function queries(includeInactive, entries) {
  const out = {};
  for (const type of [undefined, ...types]) {
    for (const phase of [undefined, ...phases]) {
      for (const tk of tagKeys) {
        const key = `type=${type ?? '*'} phase=${phase ?? '*'} tags=${tk}`;
        const got = queryMemory(index, { type, phase, tags: tagSets.get(tk), includeInactive });
        if (!got.length) continue;
        out[key] = got.map((e) => e.id);
        for (const e of got) entries[e.id] = sha(e);
      }
    }
  }
  return out;
}

const files = sorted(index.entries.flatMap((e) => e.metadata?.relatedFiles ?? []));
const live = {};
const liveEntries = {};
Object.assign(live, queries(false, liveEntries));
for (const f of [...files.map((f) => [f]), files]) {
  const got = findActiveSuppressions(index, f);
  live[`suppressions ${JSON.stringify(f)}`] = got.map((e) => e.id);
  for (const e of got) liveEntries[e.id] = sha(e);
}
const inactive = queries(true, {});

function compare(extra) {
  try {
    const stdout = execFileSync(
      process.execPath,
      [path.join(repo, 'scripts', 'compare-eval-ledger.mjs'), ...extra],
      { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }
    );
    return { exit: 0, stdout };
  } catch (err) {
    if (typeof err.status !== 'number') throw err;
    return { exit: err.status, stdout: err.stdout };
  }
}
const ledger = { markdown: compare([]), json: compare(['--json']) };

const require = createRequire(path.join(repo, 'package.json'));
const Ajv2020 = require('ajv/dist/2020').default;
const addFormats = require('ajv-formats').default ?? require('ajv-formats');
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
const schema = (name) => JSON.parse(fs.readFileSync(path.join(repo, 'schemas', name), 'utf8'));
const indexSchema = schema('riverbed-index.schema.json');
ajv.addSchema(schema('riverbed-entry.schema.json'), new URL('./riverbed-entry.schema.json', indexSchema.$id).href);
ajv.addSchema(schema('eval-failure.schema.json'), 'eval-failure.schema.json');
const errs = (validate) =>
  (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`).sort();
const validateIndex = ajv.compile(indexSchema);
const validateLine = ajv.compile(schema('eval-ledger-entry.schema.json'));
const schemaOut = { index: [], ledger: {}, ledgerLines: 0 };
if (fs.existsSync(indexPath)) {
  if (!validateIndex(JSON.parse(fs.readFileSync(indexPath, 'utf8')))) schemaOut.index = errs(validateIndex);
}
if (fs.existsSync(ledgerPath)) {
  const lines = fs.readFileSync(ledgerPath, 'utf8').split('\n').filter((l) => l.trim());
  schemaOut.ledgerLines = lines.length;
  lines.forEach((l, i) => {
    if (!validateLine(JSON.parse(l))) schemaOut.ledger[String(i + 1)] = errs(validateLine);
  });
}

const canon = (v) =>
  Array.isArray(v)
    ? v.map(canon)
    : v && typeof v === 'object'
      ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])]))
      : v;
process.stdout.write(
  JSON.stringify(canon({ live, entries: liveEntries, inactive, ledger, schema: schemaOut }), null, 1) + '\n'
);
