#!/usr/bin/env node
'use strict';
// The river-gc command of @plangate-gc/river-gc: runs the verified platform
// binary with every argument unchanged and exits with its exit code.

const { binaryPath, run, EXIT_NOT_STARTED } = require('../lib/index.js');

let bin;
try {
  bin = binaryPath();
} catch (error) {
  process.stderr.write(`river-gc (npm): ${error.message}\n`);
  process.exit(EXIT_NOT_STARTED);
}
run(process.argv.slice(2), bin).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`river-gc (npm): cannot run ${bin}: ${error.message}\n`);
    process.exitCode = EXIT_NOT_STARTED;
  }
);
