// insert.mjs CHECKOUT: wires commands/gc.mjs into River Review's two `river`
// CLIs, src/cli.mjs and runners/cli/src/index.mjs, and registers the guide
// page in the docs sidebar (sidebars.js, where upstream lists its pages),
// each change placed at an exact anchor: inserted after it, or replacing
// it. A change already present is left alone (so apply.sh can be re-run);
// an anchor that is missing, or found more than once, stops everything
// before any file is written, naming the anchor. sidebars.js is the one
// file that may be absent (a checkout without the docs site): that is
// reported, not an error. Every change is reported on stdout, one line
// each: added, replaced, already present or skipped.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';

const CHANGES = {
  'src/cli.mjs': [
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
  ],
  'runners/cli/src/index.mjs': [
    {
      what: 'the import of runGcCommand',
      anchor: "import { createCommand } from './commands/create.mjs';\n",
      text: "import { runGcCommand } from './commands/gc.mjs';\n",
    },
    {
      what: 'the gc command and its dispatch',
      anchor: '// Parse and execute\nprogram.parse();\n',
      replace: true,
      text:
        '// river gc: listed here for help; river-gc owns every argument after `gc`\n' +
        '// (./commands/gc.mjs), so it runs before commander parses anything.\n' +
        'program\n' +
        "  .command('gc')\n" +
        "  .description('Collect stale artifacts with river-gc (dry-run unless --force; river gc --help)')\n" +
        '  .allowUnknownOption()\n' +
        '  .allowExcessArguments();\n' +
        '\n' +
        '// Parse and execute\n' +
        "if (process.argv[2] === 'gc') {\n" +
        '  process.exitCode = await runGcCommand(process.argv.slice(3));\n' +
        '} else {\n' +
        '  program.parse();\n' +
        '}\n',
    },
  ],
  'sidebars.js': [
    {
      what: 'the guide page in the sidebar (guides, after use-riverbed-memory)',
      anchor: "        'guides/use-riverbed-memory',\n",
      text: "        'guides/river-gc',\n",
    },
  ],
};

/** Files that a checkout may lack (the docs site): skipped, and said so. */
const OPTIONAL = new Set(['sidebars.js']);

function count(haystack, needle) {
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + 1)) n++;
  return n;
}

const checkout = process.argv[2];
if (!checkout) {
  console.error('usage: node insert.mjs <river-review checkout>');
  process.exit(2);
}
const results = [];
const report = [];
for (const [rel, changes] of Object.entries(CHANGES)) {
  const file = path.join(checkout, rel);
  if (OPTIONAL.has(rel) && !existsSync(file)) {
    for (const { what } of changes)
      report.push(`${rel}: skipped ${what}: no ${rel} in this checkout`);
    continue;
  }
  let source = readFileSync(file, 'utf8');
  for (const { what, anchor, text, replace } of changes) {
    const done = replace ? text : anchor + text;
    if (source.includes(done)) {
      report.push(`${rel}: already present: ${what}`);
      continue;
    }
    const n = count(source, anchor);
    if (n !== 1) {
      console.error(
        `insert.mjs: ${rel}: cannot place ${what}: its anchor occurs ${n} times, not once:\n` +
          `  ${JSON.stringify(anchor)}\n` +
          `${rel} has changed since River Review c36106a9; move the anchor in insert.mjs.`
      );
      process.exit(1);
    }
    source = source.replace(anchor, () => done);
    report.push(`${rel}: ${replace ? 'replaced' : 'added'} ${what}`);
  }
  results.push([file, source]);
}
for (const [file, source] of results) writeFileSync(file, source);
for (const line of report) console.log(line);
