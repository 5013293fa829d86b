'use strict';
// @plangate-gc/river-gc: finds the river-gc binary of the platform package
// installed beside this one (an optional dependency, chosen by npm through
// its os/cpu fields), checks it against the sha256 recorded from the
// release's SHA256SUMS when this package was built, and runs it. The
// platform package is looked for only where npm installs it for this
// package: beside it (node_modules/@plangate-gc/) or nested in its own
// node_modules; never in an ancestor node_modules, NODE_PATH or the home
// directory.

const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const checksums = require('./checksums.json');

/** Exit code of the shim when river-gc cannot be started (nothing was touched). */
const EXIT_NOT_STARTED = 2;

const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];

/** How often run() checks that the process that started it is still there. */
const PARENT_POLL_MS = 100;

/** This package's directory (lib/..). */
const PACKAGE_DIR = path.dirname(__dirname);

/** Why the binary cannot be run; code is one of the constants below. */
class RiverGcBinaryError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'RiverGcBinaryError';
    this.code = code;
  }
}

/** The platform key (`linux-x64`, …) of this process. */
function platformKey(platform = process.platform, arch = process.arch) {
  return `${platform}-${arch}`;
}

function sha256File(file) {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/**
 * The package.json of the platform package pkg (@plangate-gc/…) where npm
 * installs it for this package, or null: nested in this package's
 * node_modules, or beside this package in the node_modules it is in.
 */
function platformManifest(pkg, dir = PACKAGE_DIR) {
  const candidates = [path.join(dir, 'node_modules', ...pkg.split('/'))];
  const scopeDir = path.dirname(dir);
  const [scope, name] = pkg.split('/');
  if (path.basename(scopeDir) === scope && path.basename(path.dirname(scopeDir)) === 'node_modules') {
    candidates.push(path.join(scopeDir, name));
  }
  for (const c of candidates) {
    const file = path.join(c, 'package.json');
    if (fs.existsSync(file)) return file;
  }
  return null;
}

/**
 * The path of the verified river-gc binary for this platform.
 * @throws {RiverGcBinaryError} UNSUPPORTED_PLATFORM, MISSING_PLATFORM_PACKAGE,
 *   VERSION_MISMATCH, NOT_A_FILE or CHECKSUM_MISMATCH
 */
function binaryPath() {
  const key = platformKey();
  const entry = checksums.binaries[key];
  if (!entry) {
    const known = Object.keys(checksums.binaries).sort().join(', ');
    throw new RiverGcBinaryError(
      'UNSUPPORTED_PLATFORM',
      `river-gc ${checksums.version} has no binary for ${key} (it runs on ${known})`
    );
  }
  const manifestPath = platformManifest(entry.package);
  if (!manifestPath) {
    throw new RiverGcBinaryError(
      'MISSING_PLATFORM_PACKAGE',
      `${entry.package} is not installed; reinstall @plangate-gc/river-gc without --omit=optional or --no-optional`
    );
  }
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
  if (manifest.version !== checksums.version) {
    throw new RiverGcBinaryError(
      'VERSION_MISMATCH',
      `${entry.package} is ${manifest.version}, @plangate-gc/river-gc expects ${checksums.version}; reinstall`
    );
  }
  if (!manifest.riverGc || manifest.riverGc.sha256 !== entry.sha256) {
    throw new RiverGcBinaryError(
      'CHECKSUM_MISMATCH',
      `${entry.package} ${manifest.version} is not the build @plangate-gc/river-gc was made with; reinstall`
    );
  }
  const bin = path.join(path.dirname(manifestPath), 'bin', 'river-gc');
  let st;
  try {
    st = fs.lstatSync(bin);
  } catch {
    st = null;
  }
  if (!st || !st.isFile()) {
    throw new RiverGcBinaryError(
      'NOT_A_FILE',
      `${bin} is missing or not a regular file; reinstall`
    );
  }
  const got = sha256File(bin);
  if (got !== entry.sha256) {
    throw new RiverGcBinaryError(
      'CHECKSUM_MISMATCH',
      `${bin} has sha256 ${got}, but ${entry.archive} of release ${checksums.version} holds ${entry.sha256}; refusing to run it (reinstall)`
    );
  }
  return bin;
}

/**
 * Runs river-gc with args; resolves to its exit code once it has ended.
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT are forwarded each time (river-gc
 * runs in its own session, so a terminal's Ctrl-C or Ctrl-\\ reaches it
 * only through this process); a river-gc ended by a signal ends this
 * process with the same signal. RIVER_GC_PARENT_PID tells river-gc this
 * process's pid: killed outright, this process leaves no river-gc
 * deleting (it stops as on SIGTERM, with its record written).
 */
async function run(args, bin = binaryPath()) {
  const child = spawn(bin, args, {
    stdio: 'inherit',
    detached: true,
    env: { ...process.env, RIVER_GC_PARENT_PID: String(process.pid) },
  });
  let forwarded = false;
  const forward = (signal) => {
    forwarded = true;
    child.kill(signal);
  };
  for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
  // npx runs this shim through `sh -c`; npm forwards SIGTERM to that
  // shell, which dies of it without passing it on. A parent that is gone
  // stops river-gc as SIGTERM would, unless a signal was forwarded
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
      return 128 + (os.constants.signals[signal] || 0);
    }
    return code;
  } finally {
    clearInterval(watch);
    for (const signal of FORWARDED_SIGNALS) process.off(signal, forward);
  }
}

module.exports = {
  binaryPath,
  run,
  platformKey,
  platformManifest,
  RiverGcBinaryError,
  EXIT_NOT_STARTED,
  version: checksums.version,
};
