#!/usr/bin/env python3
"""Every text line ref.py prints for generated documents must be an instance
of one SPEC A10 template (or the NO_REVIEW line). Usage: template_conformance.py [N]"""
import os, re, subprocess, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
from templates import TEMPLATES, NO_REVIEW
N = sys.argv[1] if len(sys.argv) > 1 else '3000'
regs = []
for name, t in TEMPLATES.items():
    parts = re.split(r'(\{[A-Za-z]+\})', t)
    rx = ''.join(('[0-9]+' if p in ('{n}', '{keep}', '{remove}', '{hardGuarded}', '{excluded}', '{total}', '{days}', '{rank}', '{c}')
                  else '.+') if p.startswith('{') else re.escape(p) for p in parts)
    regs.append((name, re.compile(rx + r'\Z')))
stream = subprocess.run([sys.executable, os.path.join(HERE, '..', 'gen.py'), '--stream', '42', N], capture_output=True).stdout
out = subprocess.run([sys.executable, os.path.join(HERE, '..', 'ref.py')], input=stream, capture_output=True).stdout.decode()
bad = 0
seen = set()
for line in out.split('\n')[:-1]:
    if line == NO_REVIEW:
        seen.add('NO_REVIEW'); continue
    m = [n for n, r in regs if r.match(line)]
    if not m:
        bad += 1; print('NO TEMPLATE:', repr(line))
    seen.update(m)
print('lines', out.count('\n'), 'unmatched', bad)
print('templates never produced:', sorted((set(TEMPLATES) | {'NO_REVIEW'}) - seen))
