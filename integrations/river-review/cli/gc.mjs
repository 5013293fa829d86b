// src/commands/gc.mjs (and, the same file, runners/cli/src/commands/gc.mjs)
//
// `river gc`: River Review's deterministic garbage collection
// (pages/reference/cli-gc-spec.md). The engine is the river-gc binary of
// plangate-gc (MIT, https://github.com/plangate-gc/plangate-gc); this module
// finds it and runs it with every argument after `gc` unchanged, returning
// its exit code (0 / 1 / 2) and forwarding SIGINT, SIGTERM and SIGHUP.
//
// Where the binary comes from, first match wins:
//   1. RIVER_GC_BIN, when set and not empty: that file, nothing else;
//   2. the npm package @plangate-gc/river-gc, resolved from this file
//      (it verifies its platform binary against the release checksums);
//   3. `river-gc` on PATH.
// None found, or the one found unusable: a message on stderr and exit 2
// (river gc's "config error, nothing touched").

import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';

/** The npm package that carries the river-gc binary. */
export const RIVER_GC_PACKAGE = '@plangate-gc/river-gc';

/** Exit code when river-gc cannot be started (nothing was touched). */
export const EXIT_NOT_STARTED = 2;

const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** An error that stops `river gc` before river-gc runs. */
export class RiverGcNotFoundError extends Error {
  constructor(message) {
    super(message);
    this.name = 'RiverGcNotFoundError';
  }
}

function isExecutableFile(file) {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function findOnPath(envPath) {
  for (const dir of (envPath ?? '').split(path.delimiter)) {
    // An empty PATH entry means the working directory: never searched.
    if (!dir || !path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, 'river-gc');
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

function loadPackage(resolveFrom) {
  const require = createRequire(resolveFrom);
  let entry;
  try {
    entry = require.resolve(RIVER_GC_PACKAGE);
  } catch (error) {
    if (error && error.code === 'MODULE_NOT_FOUND') return null;
    throw error;
  }
  return require(entry);
}

/**
 * Finds the river-gc binary.
 *
 * @param {{ env?: NodeJS.ProcessEnv, cwd?: string, resolveFrom?: string | URL }} [options]
 *   resolveFrom: where the npm package is resolved from (default: this module).
 * @returns {{ path: string, source: 'RIVER_GC_BIN' | 'npm' | 'PATH' }}
 * @throws {RiverGcNotFoundError}
 */
export function findRiverGc(options = {}) {
  const { env = process.env, cwd = process.cwd(), resolveFrom = import.meta.url } = options;
  const explicit = env.RIVER_GC_BIN;
  if (explicit) {
    const file = path.resolve(cwd, explicit);
    if (!isExecutableFile(file)) {
      throw new RiverGcNotFoundError(
        `RIVER_GC_BIN=${explicit}: not an executable file (unset it to use ${RIVER_GC_PACKAGE} or river-gc on PATH)`
      );
    }
    return { path: file, source: 'RIVER_GC_BIN' };
  }
  let pkg;
  try {
    pkg = loadPackage(resolveFrom);
  } catch (error) {
    throw new RiverGcNotFoundError(`${RIVER_GC_PACKAGE}: cannot be loaded: ${error.message}`);
  }
  if (pkg) {
    try {
      return { path: pkg.binaryPath(), source: 'npm' };
    } catch (error) {
      throw new RiverGcNotFoundError(`${RIVER_GC_PACKAGE}: ${error.message}`);
    }
  }
  const onPath = findOnPath(env.PATH);
  if (onPath) return { path: onPath, source: 'PATH' };
  throw new RiverGcNotFoundError(
    `river-gc not found. Install it with \`npm install --save-dev ${RIVER_GC_PACKAGE}\`, set RIVER_GC_BIN to its path, or put river-gc on PATH.`
  );
}

/**
 * Runs river-gc with args and resolves to its exit code. SIGINT, SIGTERM and
 * SIGHUP received meanwhile are forwarded to it, once each: river-gc runs in
 * its own session, so a terminal's Ctrl-C reaches it only through this
 * process. A river-gc ended by a signal ends this process with that signal.
 *
 * @param {string[]} args the arguments after `gc`, passed unchanged
 * @param {{ env?: NodeJS.ProcessEnv, cwd?: string, resolveFrom?: string | URL }} [options]
 * @returns {Promise<number>}
 */
export async function runGcCommand(args, options = {}) {
  let bin;
  try {
    bin = findRiverGc(options).path;
  } catch (error) {
    if (!(error instanceof RiverGcNotFoundError)) throw error;
    console.error(`river gc: ${error.message}`);
    return EXIT_NOT_STARTED;
  }
  const child = spawn(bin, args, {
    stdio: 'inherit',
    env: options.env ?? process.env,
    cwd: options.cwd ?? process.cwd(),
    detached: true,
  });
  const forward = (signal) => child.kill(signal);
  for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
  try {
    const { code, signal } = await new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (exitCode, exitSignal) => resolve({ code: exitCode, signal: exitSignal }));
    });
    if (signal) {
      for (const s of FORWARDED_SIGNALS) process.off(s, forward);
      process.kill(process.pid, signal);
      return 128 + (os.constants.signals[signal] ?? 0);
    }
    return code;
  } catch (error) {
    console.error(`river gc: cannot run ${bin}: ${error.message}`);
    return EXIT_NOT_STARTED;
  } finally {
    for (const signal of FORWARDED_SIGNALS) process.off(signal, forward);
  }
}
