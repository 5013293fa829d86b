// Asks upstream River Review's own readers about a repository's stores and
// prints their answers as one canonical JSON document (plangate-gc test
// fixture; MIT, our own code — no upstream text).
//
//   SIM_NOW=<instant> node --import ./fakeclock.mjs read-stores.mjs --repo DIR [--space FILE]
//
// DIR is a copy of upstream's tree holding the stores (.river/memory,
// artifacts/evals); the readers are imported from it and the clock is
// fakeclock.mjs, so "now" is the instant under test. The document:
//   space:        the questions asked: the types, phases, tag sets and
//                 file paths the store names (or those of --space FILE, an
//                 earlier document, so that two documents ask the same);
//   active:       queryMemory for every type × phase × tag set present
//                 (default filter: active entries only): lists of ids;
//   inactive:     the same queries with includeInactive: true;
//   suppressions: findActiveSuppressions for every file path named in the
//                 store, and for all of them at once: lists of ids;
//   entries:      a sha256 of JSON.stringify(entry) for every entry, by id
//                 (so an entry changed in place shows);
//   ledger:       scripts/compare-eval-ledger.mjs run as upstream's nightly
//                 CI runs it (markdown, from DIR) and with --json: exit code
//                 and stdout;
//   schema:       index.json against schemas/riverbed-index.schema.json and
//                 each ledger line against schemas/eval-ledger-entry.schema.json
//                 (ajv 2020 + ajv-formats from upstream's node_modules): the
//                 errors, by place.
// Keys are sorted wherever the order is not the readers' own.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const argv = process.argv.slice(2);
const opts = {};
for (let i = 0; i < argv.length; i += 2) {
  if (!['--repo', '--space'].includes(argv[i]) || i + 1 >= argv.length) {
    throw new Error('read-stores: usage: --repo DIR [--space FILE]');
  }
  opts[argv[i].slice(2)] = argv[i + 1];
}
if (!opts.repo) throw new Error('read-stores: --repo is required');
const repo = path.resolve(opts.repo);
const lib = (p) => import(pathToFileURL(path.join(repo, p)).href);
const { loadMemory, queryMemory } = await lib('src/lib/riverbed-memory.mjs');
const { findActiveSuppressions } = await lib('src/lib/suppression.mjs');

const indexPath = path.join(repo, '.river', 'memory', 'index.json');
const ledgerPath = path.join(repo, 'artifacts', 'evals', 'results.jsonl');
const index = loadMemory(indexPath);

const sorted = (xs) => [...new Set(xs)].sort();
const sha = (v) => crypto.createHash('sha256').update(JSON.stringify(v)).digest('hex');
// The query space: what the store names, or (--space) the space of an
// earlier answer, so that two answers ask the same questions.
let space;
if (opts.space) {
  space = JSON.parse(fs.readFileSync(opts.space, 'utf8')).space;
} else {
  const tagSets = { '[]': [] };
  for (const e of index.entries) {
    const tags = e.metadata?.tags ?? [];
    for (const t of tags) tagSets[JSON.stringify([t])] = [t];
    if (tags.length > 1) tagSets[JSON.stringify(tags)] = tags;
  }
  space = {
    types: sorted(index.entries.map((e) => e.type)),
    phases: sorted(index.entries.map((e) => e.metadata?.phase).filter(Boolean)),
    tagSets,
    files: sorted(index.entries.flatMap((e) => e.metadata?.relatedFiles ?? [])),
  };
}
const { types, phases, tagSets, files } = space;
const tagKeys = Object.keys(tagSets).sort();

function queries(includeInactive) {
  const out = {};
  for (const type of [undefined, ...types]) {
    for (const phase of [undefined, ...phases]) {
      for (const tk of tagKeys) {
        const key = `type=${type ?? '*'} phase=${phase ?? '*'} tags=${tk}`;
        const got = queryMemory(index, { type, phase, tags: tagSets[tk], includeInactive });
        if (got.length) out[key] = got.map((e) => e.id);
      }
    }
  }
  return out;
}

const suppressions = {};
for (const f of [...files.map((f) => [f]), files]) {
  suppressions[JSON.stringify(f)] = findActiveSuppressions(index, f).map((e) => e.id);
}
const entries = {};
for (const e of index.entries) entries[e.id] = sha(e);

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
  JSON.stringify(
    canon({ space, active: queries(false), inactive: queries(true), suppressions, entries, ledger, schema: schemaOut }),
    null,
    1
  ) + '\n'
);
