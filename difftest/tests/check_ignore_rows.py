#!/usr/bin/env python3
"""Check ignore.PatternList against every row of the Go matcher's table
(internal/gitignore/cases_test.go), whose verdicts the Go tests confirm
with git check-ignore. Usage: python3 check_ignore_rows.py"""
import json, os, re, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
from ignore import PatternList
import unicodedata
src = open(os.path.join(HERE, '..', '..', 'internal', 'gitignore', 'cases_test.go'), encoding='utf-8').read()
def golit(s):
    if s.startswith('`'): return s[1:-1]
    return json.loads(s.replace('\\v','\\u000b').replace('\\x7f','\\u007f').replace('\\f','\\u000c').replace("\\'", "'"))
tok = r'("(?:[^"\\]|\\.)*"|`[^`]*`)'
bad = n = 0
for m in re.finditer(r'\{' + tok + r', p\(((?:' + tok + r'(?:, )?)*)\), ' + tok + r', (true|false)\}', src):
    name = golit(m.group(1)); pats = [golit(x) for x in re.findall(tok, m.group(2))]
    path = golit(m.group(m.lastindex-1)); want = m.group(m.lastindex) == 'true'
    pl = PatternList([unicodedata.normalize('NFC', p).encode() for p in pats])
    got = pl.excluded(path.encode())
    n += 1
    if got != want:
        bad += 1; print('MISMATCH', name, pats, repr(path), got, want)
print('rows', n, 'mismatches', bad)
sys.exit(1 if bad or n < 100 else 0)
