// tests/cli-gc.test.mjs
//
// `river gc` は river-gc バイナリに引数・終了コード・シグナルをそのまま渡す。
// 本物の river-gc は不要: RIVER_GC_BIN で差し替えた偽バイナリ（node スクリプト）が
// 受け取った引数を JSON で出力し、指定された終了コードやシグナルで終わる。

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test, { describe } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { findRiverGc, RiverGcNotFoundError } from '../src/commands/gc.mjs';

const CLI_PATH = fileURLToPath(new URL('../src/cli.mjs', import.meta.url));
const RUNNER_CLI_PATH = fileURLToPath(new URL('../runners/cli/bin/river', import.meta.url));

const FAKE_RIVER_GC = `#!${process.execPath}
const mode = process.env.FAKE_MODE ?? 'exit:0';
process.stdout.write(
  JSON.stringify({
    argv: process.argv.slice(2),
    cwd: process.cwd(),
    parent: process.env.RIVER_GC_PARENT_PID,
    prog: process.env.RIVER_GC_PROG,
  }) + '\\n'
);
if (mode.startsWith('exit:')) process.exit(Number(mode.slice(5)));
if (mode === 'signal') process.kill(process.pid, 'SIGKILL');
if (mode === 'wait') {
  process.on('SIGTERM', () => process.exit(42));
  process.on('SIGINT', () => process.exit(43));
  process.on('SIGHUP', () => process.exit(44));
  process.on('SIGQUIT', () => process.exit(45));
  process.stdout.write('ready\\n');
  setInterval(() => {}, 1000);
}
`;

function tempDir(t) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'river-gc-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function fakeBinary(t) {
  const file = path.join(tempDir(t), 'river-gc');
  writeFileSync(file, FAKE_RIVER_GC);
  chmodSync(file, 0o755);
  return file;
}

/** Starts `node src/cli.mjs ...argv`; resolves when it ends. */
function startCli(argv, env, onStdout, cli = CLI_PATH) {
  const child = spawn(process.execPath, [cli, ...argv], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
    onStdout?.(stdout, child);
  });
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const done = new Promise((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

const runCli = (argv, env, cli) => startCli(argv, env, undefined, cli).done;

describe('river gc', () => {
  test('is listed in river --help', async () => {
    const result = await runCli(['--help'], {});
    assert.strictEqual(result.code, 0, result.stderr);
    assert.match(result.stdout, /^ {2}gc \[options\] +\S/m);
  });

  test('passes every argument after gc through unchanged', async (t) => {
    const bin = fakeBinary(t);
    const args = ['--force', '--json', '--scope', 'memory', '--exclude', 'a b/**', '--', '-x', ''];
    const result = await runCli(['gc', ...args], { RIVER_GC_BIN: bin });
    assert.strictEqual(result.code, 0, result.stderr);
    assert.deepStrictEqual(JSON.parse(result.stdout).argv, args);
  });

  test('--help goes to river-gc, not to river', async (t) => {
    const result = await runCli(['gc', '--help'], { RIVER_GC_BIN: fakeBinary(t) });
    assert.strictEqual(result.code, 0, result.stderr);
    assert.deepStrictEqual(JSON.parse(result.stdout).argv, ['--help']);
  });

  for (const code of [0, 1, 2]) {
    test(`returns river-gc's exit code ${code}`, async (t) => {
      const result = await runCli(['gc'], {
        RIVER_GC_BIN: fakeBinary(t),
        FAKE_MODE: `exit:${code}`,
      });
      assert.strictEqual(result.code, code, result.stderr);
    });
  }

  test('tells river-gc its parent and its name', async (t) => {
    const result = await runCli(['gc'], { RIVER_GC_BIN: fakeBinary(t) });
    assert.equal(result.code, 0, result.stderr);
    const seen = JSON.parse(result.stdout);
    assert.match(seen.parent, /^[1-9][0-9]*$/);
    assert.equal(seen.prog, 'river gc');
  });

  for (const [signal, code] of [
    ['SIGTERM', 42],
    ['SIGINT', 43],
    ['SIGHUP', 44],
    ['SIGQUIT', 45],
  ]) {
    test(`forwards ${signal} to river-gc and returns its exit code`, async (t) => {
      const bin = fakeBinary(t);
      let sent = false;
      const { done } = startCli(
        ['gc', '--force'],
        { RIVER_GC_BIN: bin, FAKE_MODE: 'wait' },
        (out, child) => {
          if (!sent && out.includes('ready\n')) {
            sent = true;
            child.kill(signal);
          }
        }
      );
      const result = await done;
      assert.ok(sent, 'river-gc never became ready');
      assert.strictEqual(result.code, code, result.stderr);
    });
  }

  test('ends with the signal that ended river-gc', async (t) => {
    const result = await runCli(['gc'], { RIVER_GC_BIN: fakeBinary(t), FAKE_MODE: 'signal' });
    assert.strictEqual(result.signal, 'SIGKILL');
  });

  test('a RIVER_GC_BIN that is not an executable file is exit 2, nothing run', async (t) => {
    const missing = path.join(tempDir(t), 'no-such-river-gc');
    const result = await runCli(['gc', '--force'], { RIVER_GC_BIN: missing });
    assert.strictEqual(result.code, 2);
    assert.strictEqual(result.stdout, '');
    assert.match(
      result.stderr,
      /^river gc: RIVER_GC_BIN=.*no-such-river-gc: not an executable file/
    );
  });

  test('a relative RIVER_GC_BIN is exit 2, nothing run, even when it names an executable', async (t) => {
    const dir = tempDir(t);
    const bin = fakeBinary(t);
    writeFileSync(path.join(dir, 'river-gc'), readFileSync(bin));
    chmodSync(path.join(dir, 'river-gc'), 0o755);
    const { stdout, stderr, code } = await new Promise((resolve) => {
      const child = spawn(process.execPath, [CLI_PATH, 'gc'], {
        cwd: dir,
        env: { ...process.env, RIVER_GC_BIN: './river-gc' },
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (c) => (out += c));
      child.stderr.on('data', (c) => (err += c));
      child.on('close', (exitCode) => resolve({ stdout: out, stderr: err, code: exitCode }));
    });
    assert.equal(code, 2);
    assert.equal(stdout, '');
    assert.match(stderr, /^river gc: RIVER_GC_BIN=\.\/river-gc: not an absolute path/);
  });

  test('finds river-gc on PATH when RIVER_GC_BIN is unset or empty', (t) => {
    const bin = fakeBinary(t);
    const resolveFrom = pathToFileURL(path.join(tempDir(t), 'x.mjs'));
    const env = { PATH: ['', 'relative/dir', path.dirname(bin)].join(path.delimiter) };
    assert.deepStrictEqual(findRiverGc({ env, resolveFrom }), { path: bin, source: 'PATH' });
    assert.deepStrictEqual(findRiverGc({ env: { ...env, RIVER_GC_BIN: '' }, resolveFrom }), {
      path: bin,
      source: 'PATH',
    });
  });

  test('RIVER_GC_BIN wins over PATH', (t) => {
    const first = fakeBinary(t);
    const second = fakeBinary(t);
    const env = { RIVER_GC_BIN: first, PATH: path.dirname(second) };
    assert.deepStrictEqual(findRiverGc({ env }), { path: first, source: 'RIVER_GC_BIN' });
  });

  // A stand-in for the npm package in a project's node_modules: its
  // binaryPath() returns bin, or throws when bin is null.
  function fakePackage(t, bin, project = tempDir(t)) {
    writeFileSync(path.join(project, 'package.json'), '{"name":"river-review"}');
    const dir = path.join(project, 'node_modules', '@plangate-gc', 'river-gc');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'package.json'),
      '{"name":"@plangate-gc/river-gc","main":"index.js"}'
    );
    writeFileSync(
      path.join(dir, 'index.js'),
      bin === null
        ? "exports.binaryPath = () => { throw new Error('checksum mismatch'); };"
        : `exports.binaryPath = () => ${JSON.stringify(bin)};`
    );
    return pathToFileURL(path.join(project, 'src', 'commands', 'gc.mjs'));
  }

  test('the npm package comes before PATH', (t) => {
    const bin = fakeBinary(t);
    const resolveFrom = fakePackage(t, '/from/the/package/river-gc');
    assert.deepStrictEqual(findRiverGc({ env: { PATH: path.dirname(bin) }, resolveFrom }), {
      path: '/from/the/package/river-gc',
      source: 'npm',
    });
  });

  test('an npm package that refuses its binary is final: no fall-through to PATH', (t) => {
    const bin = fakeBinary(t);
    const resolveFrom = fakePackage(t, null);
    assert.throws(
      () => findRiverGc({ env: { PATH: path.dirname(bin) }, resolveFrom }),
      (error) =>
        error instanceof RiverGcNotFoundError &&
        error.message === '@plangate-gc/river-gc: checksum mismatch'
    );
  });

  test('a package planted above River Review, in NODE_PATH or in HOME is never loaded', (t) => {
    const top = tempDir(t);
    const marker = path.join(top, 'loaded');
    for (const dir of ['node_modules', 'node-path', path.join('home', '.node_modules')]) {
      const pkg = path.join(top, dir, '@plangate-gc', 'river-gc');
      mkdirSync(pkg, { recursive: true });
      writeFileSync(path.join(pkg, 'package.json'), '{"name":"@plangate-gc/river-gc"}');
      writeFileSync(
        path.join(pkg, 'index.js'),
        `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x');` +
          "exports.binaryPath = () => '/planted/river-gc';"
      );
    }
    const checkout = path.join(top, 'river-review');
    mkdirSync(path.join(checkout, 'src', 'commands'), { recursive: true });
    writeFileSync(path.join(checkout, 'package.json'), '{"name":"river-review"}');
    const resolveFrom = pathToFileURL(path.join(checkout, 'src', 'commands', 'gc.mjs'));
    const env = {
      PATH: tempDir(t),
      NODE_PATH: path.join(top, 'node-path'),
      HOME: path.join(top, 'home'),
    };
    assert.throws(() => findRiverGc({ env, resolveFrom }), RiverGcNotFoundError);
    assert.equal(existsSync(marker), false, 'a planted package was loaded');
    fakePackage(t, '/own/river-gc', checkout);
    assert.deepEqual(findRiverGc({ env, resolveFrom }), { path: '/own/river-gc', source: 'npm' });
  });

  test('none found: a message naming ways to get it that work today', (t) => {
    const resolveFrom = pathToFileURL(path.join(tempDir(t), 'x.mjs'));
    assert.throws(
      () => findRiverGc({ env: { PATH: tempDir(t) }, resolveFrom }),
      (error) =>
        error instanceof RiverGcNotFoundError &&
        /go build -o \S+ \.\/cmd\/river-gc/.test(error.message) &&
        /RIVER_GC_BIN to its absolute path/.test(error.message) &&
        /PATH/.test(error.message)
    );
  });
});

describe('river gc (runners/cli)', () => {
  test('is listed in river --help', async () => {
    const result = await runCli(['--help'], {}, RUNNER_CLI_PATH);
    assert.strictEqual(result.code, 0, result.stderr);
    assert.match(result.stdout, /^ {2}gc +Collect stale artifacts with river-gc/m);
  });

  test('passes every argument after gc through unchanged, --help and --version included', async (t) => {
    const bin = fakeBinary(t);
    for (const args of [['--force', '--scope', 'memory', '-x', ''], ['--help'], ['--version']]) {
      const result = await runCli(['gc', ...args], { RIVER_GC_BIN: bin }, RUNNER_CLI_PATH);
      assert.strictEqual(result.code, 0, result.stderr);
      assert.deepStrictEqual(JSON.parse(result.stdout).argv, args);
    }
  });

  for (const code of [1, 2]) {
    test(`returns river-gc's exit code ${code}`, async (t) => {
      const env = { RIVER_GC_BIN: fakeBinary(t), FAKE_MODE: `exit:${code}` };
      const result = await runCli(['gc'], env, RUNNER_CLI_PATH);
      assert.strictEqual(result.code, code, result.stderr);
    });
  }
});
