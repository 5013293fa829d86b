#!/usr/bin/env python3
"""Differential test driver: ref.py versus another implementation.

Usage:
  python3 diff.py [options] -- CMD [ARG...]
  python3 diff.py [options] CMD            (CMD without arguments)

For each seed in START..START+N-1 it generates one document with gen.py,
feeds it to `python3 ref.py` and to CMD, once in text mode and once with
`--json` appended, and compares stdout bytes (and exit codes). It prints
every differing seed and a unified diff for the first --show of them.

JSON outputs that differ only inside no_review `gate.errors` (whose
messages are implementation specific) are counted separately as
"gate-errors-only" and are not failures unless --strict-gate is given.

Options:
  -n N            number of seeds (default 500)
  --start S       first seed (default 1)
  --jobs J        parallel workers (default: CPU count)
  --show K        unified diffs to print (default 5)
  --mode M        text, json or both (default both)
  --stream K      additionally run K documents as one JSON-Lines stream
                  (gen.py --stream START K) in both modes; reports the first
                  differing line
  --strict-gate   treat gate.errors differences as failures
  --save DIR      write doc/outputs of failing seeds into DIR
Exit status: 0 when no failures, 1 otherwise, 2 on usage error.
"""
import concurrent.futures
import difflib
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REF = [sys.executable, os.path.join(HERE, 'ref.py')]
GEN = [sys.executable, os.path.join(HERE, 'gen.py')]


def usage(msg=None):
    if msg:
        sys.stderr.write('diff.py: %s\n' % msg)
    sys.stderr.write(__doc__)
    sys.exit(2)


def parse_args(argv):
    opts = {'n': 500, 'start': 1, 'jobs': os.cpu_count() or 4, 'show': 5, 'mode': 'both',
            'stream': 0, 'strict_gate': False, 'save': None}
    cmd = None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == '--':
            cmd = argv[i + 1:]
            break
        if a in ('-h', '--help'):
            sys.stdout.write(__doc__)
            sys.exit(0)
        if a == '--strict-gate':
            opts['strict_gate'] = True
            i += 1
            continue
        key = {'-n': 'n', '--start': 'start', '--jobs': 'jobs', '--show': 'show', '--mode': 'mode',
               '--stream': 'stream', '--save': 'save'}.get(a)
        if key:
            if i + 1 >= len(argv):
                usage('missing value for ' + a)
            v = argv[i + 1]
            opts[key] = v if key in ('mode', 'save') else int(v)
            i += 2
            continue
        if a.startswith('-'):
            usage('unknown option ' + a)
        cmd = argv[i:]
        break
    if not cmd:
        usage('no command given')
    if opts['mode'] not in ('text', 'json', 'both'):
        usage('--mode must be text, json or both')
    return opts, cmd


def run(cmd, data):
    try:
        r = subprocess.run(cmd, input=data, capture_output=True, timeout=120)
        return r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired:
        return 'timeout', b'', b''
    except OSError as e:
        return 'oserror', b'', str(e).encode()


def strip_gate(out):
    """Replace gate.errors by [] in every JSON line (None if not JSON lines)."""
    res = []
    for line in out.split(b'\n'):
        if not line:
            res.append(line)
            continue
        try:
            d = json.loads(line)
        except ValueError:
            return None
        if isinstance(d, dict) and d.get('status') == 'no_review' and isinstance(d.get('gate'), dict):
            d['gate']['errors'] = []
        res.append(json.dumps(d, ensure_ascii=False, separators=(',', ':')).encode())
    return b'\n'.join(res)


def compare(ref_res, oth_res, is_json, strict_gate):
    """Return None (same), 'gate' (only gate.errors differ) or 'diff'."""
    rc1, o1, _ = ref_res
    rc2, o2, _ = oth_res
    if rc1 == rc2 and o1 == o2:
        return None
    if is_json and not strict_gate and rc1 == rc2:
        a, b = strip_gate(o1), strip_gate(o2)
        if a is not None and a == b:
            return 'gate'
    return 'diff'


def udiff(a, b, label):
    al = a.decode('utf-8', 'backslashreplace').splitlines(keepends=True)
    bl = b.decode('utf-8', 'backslashreplace').splitlines(keepends=True)
    d = ''.join(difflib.unified_diff(al, bl, 'ref.py ' + label, 'other ' + label, n=1))
    lines = d.splitlines(keepends=True)
    if len(lines) > 40:
        d = ''.join(lines[:40]) + '... (%d more diff lines)\n' % (len(lines) - 40)
    return d


def one_seed(seed, cmd, modes, strict_gate):
    doc = subprocess.run(GEN + [str(seed)], capture_output=True).stdout
    results = []
    for m in modes:
        extra = ['--json'] if m == 'json' else []
        r1 = run(REF + extra, doc)
        r2 = run(cmd + extra, doc)
        results.append((m, compare(r1, r2, m == 'json', strict_gate), r1, r2))
    return seed, doc, results


def main(argv):
    opts, cmd = parse_args(argv[1:])
    modes = ['text', 'json'] if opts['mode'] == 'both' else [opts['mode']]
    seeds = range(opts['start'], opts['start'] + opts['n'])
    failing = []
    gate_only = 0
    shown = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=opts['jobs']) as ex:
        futs = [ex.submit(one_seed, s, cmd, modes, opts['strict_gate']) for s in seeds]
        for f in futs:
            seed, doc, results = f.result()
            bad = [(m, r1, r2) for m, c, r1, r2 in results if c == 'diff']
            gate_only += sum(1 for _, c, _, _ in results if c == 'gate')
            if not bad:
                continue
            failing.append((seed, [m for m, _, _ in bad]))
            print('DIFF seed %d (%s)' % (seed, ', '.join(m for m, _, _ in bad)))
            if shown < opts['show']:
                shown += 1
                print('  input: %s' % doc[:400].decode('utf-8', 'backslashreplace').rstrip('\n')
                      + (' ...' if len(doc) > 400 else ''))
                for m, r1, r2 in bad:
                    if r1[0] != r2[0]:
                        print('  exit code: ref.py=%s other=%s' % (r1[0], r2[0]))
                        if r2[2]:
                            print('  other stderr: %s' % r2[2][:300].decode('utf-8', 'backslashreplace'))
                    sys.stdout.write(udiff(r1[1], r2[1], m))
            if opts['save']:
                os.makedirs(opts['save'], exist_ok=True)
                with open(os.path.join(opts['save'], 'seed%d.json' % seed), 'wb') as fh:
                    fh.write(doc)
                for m, r1, r2 in bad:
                    for who, r in (('ref', r1), ('other', r2)):
                        with open(os.path.join(opts['save'], 'seed%d.%s.%s.out' % (seed, m, who)), 'wb') as fh:
                            fh.write(r[1])
    stream_fail = 0
    if opts['stream']:
        data = subprocess.run(GEN + ['--stream', str(opts['start']), str(opts['stream'])], capture_output=True).stdout
        for m in modes:
            extra = ['--json'] if m == 'json' else []
            r1 = run(REF + extra, data)
            r2 = run(cmd + extra, data)
            c = compare(r1, r2, m == 'json', opts['strict_gate'])
            if c == 'diff':
                stream_fail += 1
                print('DIFF stream (gen.py --stream %d %d) %s' % (opts['start'], opts['stream'], m))
                if m == 'json':
                    l1, l2 = r1[1].split(b'\n'), r2[1].split(b'\n')
                    for k in range(max(len(l1), len(l2))):
                        a = l1[k] if k < len(l1) else b'<missing>'
                        b = l2[k] if k < len(l2) else b'<missing>'
                        if a != b:
                            print('  first differing document index %d' % k)
                            break
                sys.stdout.write(udiff(r1[1], r2[1], m + ' stream'))
            elif c == 'gate':
                gate_only += 1
    print('seeds %d..%d, modes %s: %d failing seed(s), %d gate-errors-only difference(s)%s'
          % (opts['start'], opts['start'] + opts['n'] - 1, '+'.join(modes), len(failing), gate_only,
             ', stream failures %d' % stream_fail if opts['stream'] else ''))
    if failing:
        print('failing seeds: ' + ' '.join(str(s) for s, _ in failing))
    return 1 if failing or stream_fail else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
