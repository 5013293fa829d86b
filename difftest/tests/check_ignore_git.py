#!/usr/bin/env python3
"""Cross-check ignore.PatternList against `git check-ignore --no-index`.
Usage: python3 check_ignore_git.py [N] [SEED]"""
import os, random, subprocess, sys, tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from ignore import PatternList, malformed_reason

N = int(sys.argv[1]) if len(sys.argv) > 1 else 300
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
SEGS = ['a', 'b', 'ab', 'a.x', 'b.md', '.t', 'x-y', 'é', 'e\u0301', 'A', '[x]', 'a b', '#c', '!d', 'a*', 'z9']
PAT_ATOMS = ['a', 'b', '*', '**', '?', '[ab]', '[!a]', '[a-c]', '[[:alpha:]]', '[[:digit:]]', '[]a]', '[^b]',
             '.x', '.md', '\\*', '\\[', '\\!', 'é', 'x-y', '[[:bogus:]]', '[[:a]', '[a-]', '[-a]', '\\ ', '[[:punct:]]',
             '[[:space:]]', '[\\]]', 'A', '#', '!', '***', 'a**', '**b', '*/**', '\\', '[a\\-c]']
def rpath():
    return '/'.join(rng.choice(SEGS) for _ in range(rng.randint(1, 4)))
def rpat():
    k = rng.randint(1, 4)
    s = ''
    for i in range(k):
        s += rng.choice(PAT_ATOMS)
        if i < k - 1 and rng.random() < 0.6:
            s += '/'
    if rng.random() < 0.2: s = '/' + s
    if rng.random() < 0.2: s = s + '/'
    if rng.random() < 0.2: s = '!' + s
    if rng.random() < 0.1: s = s + '  '
    if rng.random() < 0.1: s = '**/' + s
    return s
bad = 0
tmp = tempfile.mkdtemp()
subprocess.run(['git', 'init', '-q', tmp], check=True)
for case in range(N):
    pats = []
    while len(pats) < rng.randint(1, 4):
        p = rpat()
        if malformed_reason(p) is None:
            pats.append(p)
    paths = list(dict.fromkeys(rpath() for _ in range(8)))
    with open(os.path.join(tmp, '.gitignore'), 'wb') as f:
        f.write(b''.join(p.encode() + b'\n' for p in pats))
    pl = PatternList([p.encode() for p in pats])
    for path in paths:
        r = subprocess.run(['git', '-C', tmp, 'check-ignore', '--no-index', '-z', '--stdin'],
                           input=path.encode() + b'\0', capture_output=True)
        git_ign = r.stdout.rstrip(b'\0') == path.encode()
        mine = pl.excluded(path.encode())
        if git_ign != mine:
            bad += 1
            if bad < 20:
                print('MISMATCH pats=%r path=%r git=%s mine=%s' % (pats, path, git_ign, mine))
print('cases', N, 'mismatches', bad)
