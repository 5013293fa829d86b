// insert.mjs CLI_MJS: wires src/commands/gc.mjs into River Review's
// src/cli.mjs with three insertions, each after an exact anchor line. An
// insertion already present is left alone (so apply.sh can be re-run); an
// anchor that is missing, or found more than once, stops everything before
// the file is written, naming the anchor.

import { readFileSync, writeFileSync } from 'node:fs';
import process from 'node:process';

const INSERTIONS = [
  {
    what: 'the import of runGcCommand',
    anchor: "import { severityToPriority } from './lib/finding-format.mjs';\n",
    text: "import { runGcCommand } from './commands/gc.mjs';\n",
  },
  {
    what: 'the gc line of printHelp',
    anchor: '  eval                  Run review fixtures evaluation (must_include checks)\n',
    text:
      '  gc [options]          Collect stale artifacts with river-gc (dry-run unless --force;\n' +
      '                        every option is passed to river-gc: river gc --help)\n',
  },
  {
    what: 'the gc dispatch at the start of main',
    anchor: 'async function main(argv = process.argv.slice(2)) {\n',
    text:
      '  // river gc owns every argument after `gc` (src/commands/gc.mjs).\n' +
      "  if (argv[0] === 'gc') return runGcCommand(argv.slice(1));\n",
  },
];

function count(haystack, needle) {
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + 1)) n++;
  return n;
}

const file = process.argv[2];
if (!file) {
  console.error('usage: node insert.mjs <river-review>/src/cli.mjs');
  process.exit(2);
}
let source = readFileSync(file, 'utf8');
for (const { what, anchor, text } of INSERTIONS) {
  if (source.includes(anchor + text)) continue;
  const n = count(source, anchor);
  if (n !== 1) {
    console.error(
      `insert.mjs: ${file}: cannot place ${what}: its anchor line occurs ${n} times, not once:\n` +
        `  ${JSON.stringify(anchor)}\n` +
        'src/cli.mjs has changed since River Review c36106a9; move the anchor in insert.mjs.'
    );
    process.exit(1);
  }
  source = source.replace(anchor, anchor + text);
}
writeFileSync(file, source);
