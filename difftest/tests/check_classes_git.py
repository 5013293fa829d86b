import os, subprocess, sys, tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from ignore import PatternList, CLASSES
tmp = tempfile.mkdtemp(); subprocess.run(['git', 'init', '-q', tmp], check=True)
bad = 0
for name in sorted(CLASSES):
    pat = b'x[[:' + name + b':]]'
    open(os.path.join(tmp, '.gitignore'), 'wb').write(pat + b'\n')
    paths = [b'x' + bytes([c]) for c in range(1, 256) if c != 47]
    r = subprocess.run(['git', '-C', tmp, 'check-ignore', '--no-index', '-z', '--stdin'],
                       input=b''.join(p + b'\0' for p in paths), capture_output=True)
    gitset = set(x for x in r.stdout.split(b'\0') if x)
    pl = PatternList([pat])
    mine = set(p for p in paths if pl.excluded(p))
    if gitset != mine:
        bad += 1
        print(name, 'git-only', sorted(gitset - mine), 'mine-only', sorted(mine - gitset))
print('class mismatches', bad)
