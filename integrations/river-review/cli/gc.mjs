// src/commands/gc.mjs (and, the same file, runners/cli/src/commands/gc.mjs)
//
// `river gc`: River Review's deterministic garbage collection
// (pages/reference/cli-gc-spec.md). The engine is the river-gc binary of
// plangate-gc (MIT, https://github.com/plangate-gc/plangate-gc); this module
// finds it and runs it with every argument after `gc` unchanged, returning
// its exit code (0 / 1 / 2) and forwarding SIGINT, SIGTERM, SIGHUP and SIGQUIT.
//
// Where the binary comes from, first match wins:
//   1. RIVER_GC_BIN, when set and not empty: that file, nothing else; it
//      must be an absolute path (a relative one would name a file of the
//      repository being collected);
//   2. the npm package @plangate-gc/river-gc, looked up only where npm puts
//      River Review's own dependencies: the node_modules of River Review's
//      package root, the node_modules River Review is installed in, and the
//      node_modules of the workspace root that lists it. Never an ancestor
//      node_modules further up, NODE_PATH or the home directory, so a
//      package planted above the checkout is never run. The package
//      verifies its platform binary against the release checksums;
//   3. `river-gc` on PATH (absolute entries only).
// None found, or the one found unusable: a message on stderr and exit 2
// (river gc's "config error, nothing touched").
//
// river-gc runs in a session of its own, so a terminal's signal reaches it
// once, through this process: SIGINT, SIGTERM, SIGHUP and SIGQUIT are
// forwarded, and this process exits only after river-gc, with its code.
// RIVER_GC_PARENT_PID tells river-gc this process's pid: if this process is
// killed outright, river-gc stops as on SIGTERM, with its record written.
// RIVER_GC_PROG makes its --help say `river gc`.

import { spawn } from 'node:child_process';
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

/** The npm package that carries the river-gc binary. */
export const RIVER_GC_PACKAGE = '@plangate-gc/river-gc';

/** Exit code when river-gc cannot be started (nothing was touched). */
export const EXIT_NOT_STARTED = 2;

const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];

/** How often runGcCommand checks that the process that started it is still there. */
const PARENT_POLL_MS = 100;

/** How to get river-gc today (no release is published yet). */
export const INSTALL_HINT =
  'Build it from a clone of https://github.com/plangate-gc/plangate-gc with Go 1.26 ' +
  '(`go build -o ~/.local/bin/river-gc ./cmd/river-gc`) and put it on PATH, or set RIVER_GC_BIN to its absolute path.';

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

function readManifest(dir) {
  try {
    return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  } catch {
    return null;
  }
}

/** The directory of the nearest package.json at or above dir, or null. */
function packageRoot(dir) {
  for (let d = dir; ; d = path.dirname(d)) {
    if (readManifest(d)) return d;
    if (path.dirname(d) === d) return null;
  }
}

/** River Review's package name (its package.json at c36106a9). */
const RIVER_REVIEW_PACKAGE = 'river-review';

/**
 * The node_modules directories npm installs River Review's dependencies
 * into, for the module in fromDir: its own package's (runners/cli, or
 * River Review itself), River Review's (for runners/cli, the checkout two
 * levels up when its package is river-review), and the one River Review
 * is installed in (node_modules/river-review). Nothing further up.
 */
export function dependencyDirs(fromDir) {
  const own = packageRoot(fromDir);
  if (!own) return [];
  const dirs = [path.join(own, 'node_modules')];
  // runners/cli/src/commands/gc.mjs: River Review is two levels above
  // the runner's package (its workspace root), and nowhere else.
  const checkout = path.dirname(path.dirname(own));
  const base =
    path.basename(path.dirname(own)) === 'runners' &&
    readManifest(checkout)?.name === RIVER_REVIEW_PACKAGE
      ? checkout
      : own;
  if (base !== own) dirs.push(path.join(base, 'node_modules'));
  const parent = path.dirname(base);
  if (path.basename(parent) === 'node_modules') dirs.push(parent);
  else if (
    path.basename(parent).startsWith('@') &&
    path.basename(path.dirname(parent)) === 'node_modules'
  ) {
    dirs.push(path.dirname(parent));
  }
  return dirs;
}

function loadPackage(resolveFrom) {
  const from = path.dirname(
    resolveFrom instanceof URL || String(resolveFrom).startsWith('file:')
      ? fileURLToPath(resolveFrom)
      : String(resolveFrom)
  );
  for (const dir of dependencyDirs(from)) {
    const pkgDir = path.join(dir, ...RIVER_GC_PACKAGE.split('/'));
    const manifest = readManifest(pkgDir);
    if (!manifest) continue;
    if (manifest.name !== RIVER_GC_PACKAGE) {
      throw new Error(
        `${pkgDir} is not ${RIVER_GC_PACKAGE} (its package.json names ${manifest.name})`
      );
    }
    const require = createRequire(path.join(pkgDir, 'package.json'));
    return require(path.join(pkgDir, manifest.main ?? 'index.js'));
  }
  return null;
}

/**
 * Finds the river-gc binary.
 *
 * @param {{ env?: NodeJS.ProcessEnv, resolveFrom?: string | URL }} [options]
 *   resolveFrom: the module whose package's dependencies are searched (default: this module).
 * @returns {{ path: string, source: 'RIVER_GC_BIN' | 'npm' | 'PATH' }}
 * @throws {RiverGcNotFoundError}
 */
export function findRiverGc(options = {}) {
  const { env = process.env, resolveFrom = import.meta.url } = options;
  const explicit = env.RIVER_GC_BIN;
  if (explicit) {
    if (!path.isAbsolute(explicit)) {
      throw new RiverGcNotFoundError(
        `RIVER_GC_BIN=${explicit}: not an absolute path; set it to the absolute path of river-gc (a relative one would name a file of the repository being collected)`
      );
    }
    const file = path.normalize(explicit);
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
  throw new RiverGcNotFoundError(`river-gc not found. ${INSTALL_HINT}`);
}

/**
 * Runs river-gc with args and resolves to its exit code once it has ended.
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT received meanwhile are forwarded to
 * it, each time: river-gc runs in its own session, so a terminal's Ctrl-C
 * or Ctrl-\\ reaches it only through this process. A river-gc ended by a
 * signal ends this process with that signal.
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
    env: {
      ...(options.env ?? process.env),
      RIVER_GC_PARENT_PID: String(process.pid),
      RIVER_GC_PROG: 'river gc',
    },
    cwd: options.cwd ?? process.cwd(),
    detached: true,
  });
  let forwarded = false;
  const forward = (signal) => {
    forwarded = true;
    child.kill(signal);
  };
  for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
  // `npx river gc` runs this process through `sh -c`; npm forwards SIGTERM
  // to that shell, which dies of it without passing it on. A parent that
  // is gone stops river-gc as SIGTERM would, unless a signal was forwarded
  // already (a second one would end river-gc at once, without its record).
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(watch);
      if (!forwarded) forward('SIGTERM');
    }
  }, PARENT_POLL_MS);
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
    clearInterval(watch);
    for (const signal of FORWARDED_SIGNALS) process.off(signal, forward);
  }
}
