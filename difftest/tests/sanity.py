#!/usr/bin/env python3
"""Hand-written sanity tests for ref.py (run: python3 tests/sanity.py)."""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REF = os.path.join(HERE, '..', 'ref.py')
sys.path.insert(0, os.path.join(HERE, '..'))
from templates import TEMPLATES, NO_REVIEW  # noqa: E402

NOW = 1764374400
DAY = 86400
FAILS = []


def run(doc_bytes, *args):
    if isinstance(doc_bytes, str):
        doc_bytes = doc_bytes.encode('utf-8')
    r = subprocess.run([sys.executable, REF] + list(args), input=doc_bytes, capture_output=True)
    assert r.returncode == 0, (r.returncode, r.stderr)
    return r.stdout.decode('utf-8')


def doc(paths, scope='memory', days=90, maxe=1000, maxmb=500, now=NOW, guards=None, excludes=None, raw_ret=None):
    d = {'inventory': {'scope': scope, 'paths': paths},
         'retention': {'days': days, 'maxEntries': maxe, 'maxSizeMb': maxmb}, 'now': now}
    if guards is not None:
        d['hardGuards'] = guards
    if excludes is not None:
        d['excludes'] = excludes
    s = json.dumps(d, ensure_ascii=False)
    if raw_ret:
        for k, v in raw_ret.items():
            s = re.sub(r'"%s": [^,}]+' % k, '"%s": %s' % (k, v), s, count=1)
    return s


def check(name, got, want):
    if got != want:
        FAILS.append(name)
        print('FAIL', name)
        print('--- want\n' + want + '--- got\n' + got)
    else:
        print('ok  ', name)


def E(path, size, mtime, **kw):
    d = {'path': path, 'sizeBytes': size, 'mtimeEpoch': mtime}
    d.update(kw)
    return d


# 1. seed 001 "Good": 100 memory entries, 7 older than 90 days -> 7 age removals sorted by path
paths = []
for i in range(100):
    age_days = 100 + i if i % 14 == 0 and i < 98 else 10 + (i % 50)
    paths.append(E('.river/memory/snapshots/s%03d.json' % ((i * 37) % 100), 1048576, NOW - age_days * DAY))
paths[-1] = E('.river/memory/index.json', 10, NOW - 400 * DAY)
old = sorted(p['path'] for p in paths if p['mtimeEpoch'] < NOW - 90 * DAY and p['path'] != '.river/memory/index.json')
assert len(old) == 7, len(old)
out = run(doc(paths, guards=['.river/memory/index.json']))
lines = out.splitlines()
check('seed001-summary', lines[0] + '\n',
      '(summary):1: scope memory: keep 93, remove 7, hard-guarded 1, excluded 0\n')
check('seed001-guard-retention-warning', lines[1] + '\n',
      '(warning):1: [severity=major] hard guard .river/memory/index.json が retention 設定 (age) と重複しています。保持は維持されますが設定を整理してください。\n')
rm = [l.split(':0:')[0] for l in lines if ':0: [severity=minor] reason=age' in l]
check('seed001-7-age-sorted', repr(rm) + '\n', repr(old) + '\n')
check('seed001-no-other-lines', str(len(lines)) + '\n', str(2 + 7) + '\n')
j = json.loads(run(doc(paths, guards=['.river/memory/index.json']), '--json'))
check('seed001-json-removed-sorted', repr([r['path'] for r in j['removed']]) + '\n', repr(old) + '\n')
check('seed001-json-keys', repr(list(j)) + '\n', repr(['version', 'skill', 'status', 'scope', 'now', 'retention', 'removed', 'keptSummary', 'counts', 'evidence', 'warnings', 'questions']) + '\n')
check('seed001-json-hg', str(j['counts']['hardGuarded']) + '\n', '1\n')

# 2. index.json present without hardGuards -> built-in guard, warning, question
out = run(doc([E('.river/memory/index.json', 5, NOW - 10 * DAY), E('.river/memory/a.json', 7, NOW)]))
check('builtin-guard', out,
      '(summary):1: scope memory: keep 2, remove 0, hard-guarded 1, excluded 0\n'
      '(warning):1: [severity=major] single-source .river/memory/index.json が hardGuards に含まれていないため、組み込みの保護で保持しました。\n'
      '(question):1: scope memory の single-source (.river/memory/index.json) を保護する hardGuards が渡されていません。呼び出し側の設定を確認してください。\n')

# 3. count boundary tie broken by path (mtime DESC, path DESC); maxEntries 2
t = NOW - DAY
out = run(doc([E('.river/memory/b.json', 1, t), E('.river/memory/a.json', 1, t), E('.river/memory/c.json', 1, t),
               E('.river/memory/d.json', 1, t - 1)], maxe=2, guards=['.river/memory/index.json']))
check('count-tie', out,
      '(summary):1: scope memory: keep 2, remove 2, hard-guarded 0, excluded 0\n'
      '.river/memory/a.json:0: [severity=minor] reason=count, sizeBytes=1, rank=3\n'
      '.river/memory/d.json:0: [severity=minor] reason=count, sizeBytes=1, rank=4\n')

# 4. size boundary: limit floor(0.001*1048576)=1048; sums 500,1000,1048 (not >),1049 (>)
out = run(doc([E('.river/memory/a.json', 500, NOW), E('.river/memory/b.json', 500, NOW - 1),
               E('.river/memory/c.json', 48, NOW - 2), E('.river/memory/d.json', 1, NOW - 3),
               E('.river/memory/e.json', 0, NOW - 4)], maxmb=0.001, guards=['.river/memory/index.json']))
check('size-boundary', out,
      '(summary):1: scope memory: keep 3, remove 2, hard-guarded 0, excluded 0\n'
      '.river/memory/d.json:0: [severity=minor] reason=size, sizeBytes=1, cumulativeBytes=1049\n'
      '.river/memory/e.json:0: [severity=minor] reason=size, sizeBytes=0, cumulativeBytes=1049\n')

# 5. empty inventory -> NO_REVIEW; empty stdin -> NO_REVIEW
check('empty-inventory', run(doc([])), NO_REVIEW + '\n')
check('empty-stdin', run(b''), NO_REVIEW + '\n')
check('ws-stdin', run(b' \n\t '), NO_REVIEW + '\n')
nr = json.loads(run(b'', '--json'))
check('empty-stdin-json', repr(sorted(nr)) + nr['status'] + '\n', repr(['gate', 'skill', 'status', 'version']) + 'no_review\n')

# 6. age boundary: mtime == cutoff is kept, cutoff-1 removed; fractional days
c = NOW - int(0.5 * DAY)
out = run(doc([E('.river/memory/a.json', 1, c), E('.river/memory/b.json', 2, c - 1)], days=0.5,
              guards=['.river/memory/index.json/']))
check('age-boundary', out,
      '(summary):1: scope memory: keep 1, remove 1, hard-guarded 0, excluded 0\n'
      '.river/memory/b.json:0: [severity=minor] reason=age, sizeBytes=2, mtimeAge=0日\n')

# 7. invalid retention: question lines only, literal echoed
out = run(doc([E('.river/memory/a.json', 1, NOW)], guards=['.river/memory/index.json'],
              raw_ret={'days': '-1e0', 'maxEntries': '2.5', 'maxSizeMb': '0.0'}))
check('invalid-retention', out,
      '(question):1: retention 設定が不整合です (days=-1e0)。評価を行わずに人間の確認を求めます。\n'
      '(question):1: retention 設定が不整合です (maxEntries=2.5)。評価を行わずに人間の確認を求めます。\n'
      '(question):1: retention 設定が不整合です (maxSizeMb=0.0)。評価を行わずに人間の確認を求めます。\n')
j = json.loads(run(doc([E('.river/memory/a.json', 1, NOW)], guards=['.river/memory/index.json'],
                       raw_ret={'maxEntries': '0'}), '--json'))
check('invalid-retention-json', json.dumps(j, ensure_ascii=False) + '\n',
      json.dumps({"version": "1", "skill": "plangate-gc-deterministic", "status": "handoff", "scope": "memory",
                  "now": NOW, "retention": {"days": 90, "maxEntries": 0, "maxSizeMb": 500}, "removed": [],
                  "evidence": [], "warnings": [],
                  "questions": [{"kind": "invalid-retention", "message": "retention 設定が不整合です (maxEntries=0)。評価を行わずに人間の確認を求めます。"}]},
                 ensure_ascii=False) + '\n')

# 8. unreliable mtime: >50% unusable -> remove 0, no REMOVE lines
out = run(doc([E('.river/memory/a.json', 1, None), E('.river/memory/b.json', 1, 0),
               E('.river/memory/c.json', 1, NOW - 1000 * DAY)], guards=['.river/memory/index.json']))
check('unreliable-mtime', out,
      '(summary):1: scope memory: keep 3, remove 0, hard-guarded 0, excluded 0\n'
      '(warning):1: [severity=major] mtimeEpoch が欠けている 1 件を評価から除外しました (例: .river/memory/a.json)。\n'
      '(warning):1: [severity=major] mtimeEpoch が 0 以下または未来値の 1 件を inventory 不整合として評価から除外しました (例: .river/memory/b.json)。\n'
      '(question):1: mtimeEpoch が使用できないエントリが inventory の 50% を超えています (2/3)。age 判定が信頼できないため削除判定を保留します。\n')

# 9. directories, out of scope, duplicates, excludes, number forms
out = run(doc([E('.river/memory/d', 1, NOW), E('.river/memory/d/x.json', 3, NOW - 200 * DAY),
               E('.river/memory/e/', 1, NOW), E('.river/memory/t', 1, NOW, type='dir'),
               E('src/a.go', 1, NOW), E('.river/memory//a.json', 1, NOW), E('./.river/memory/a.json', 1, NOW),
               E('.river/memory/dup.json', 5, NOW), E('.river/memory/dup.json', 9, NOW - 500 * DAY),
               E('.river/memory/keep/k.json', 4, NOW - 500 * DAY)],
              guards=['.river/memory/index.json'], excludes=['keep/']))
check('mixed', out,
      '(summary):1: scope memory: keep 2, remove 1, hard-guarded 0, excluded 1\n'
      '(warning):1: [severity=major] 同一パスが重複している 1 件を inventory 不整合として評価から除外しました (例: .river/memory/dup.json)。\n'
      '.river/memory/d/x.json:0: [severity=minor] reason=age, sizeBytes=3, mtimeAge=200日\n')
j = json.loads(run(doc([E('.river/memory/d', 1, NOW), E('.river/memory/d/x.json', 3, NOW - 200 * DAY),
                        E('.river/memory/e/', 1, NOW), E('.river/memory/t', 1, NOW, type='dir'),
                        E('src/a.go', 1, NOW), E('.river/memory//a.json', 1, NOW), E('./.river/memory/a.json', 1, NOW),
                        E('.river/memory/dup.json', 5, NOW), E('.river/memory/dup.json', 9, NOW - 500 * DAY),
                        E('.river/memory/keep/k.json', 4, NOW - 500 * DAY)],
                       guards=['.river/memory/index.json'], excludes=['keep/']), '--json'))
check('mixed-counts', json.dumps(j['counts']) + json.dumps(j['keptSummary']) + '\n',
      json.dumps({"keep": 2, "remove": 1, "hardGuarded": 0, "excluded": 1, "mtimeMissing": 0, "mtimeInconsistent": 0,
                  "duplicates": 1, "directories": 3, "outOfScope": 3}) + json.dumps({"count": 2, "sizeBytes": 13}) + '\n')

# 10. integer spellings accepted; sizeBytes printed as plain digits
out = run('{"inventory":{"scope":"tmp","paths":[{"path":".river/tmp/a","sizeBytes":1e3,"mtimeEpoch":1.0e3}]},'
          '"retention":{"days":1E1,"maxEntries":1.0,"maxSizeMb":5e2},"now":1764374400.0}')
check('number-forms', out,
      '(summary):1: scope tmp: keep 0, remove 1, hard-guarded 0, excluded 0\n'
      '(warning):1: [severity=major] scope tmp で REMOVE 判定が inventory の 80% を超えています (1/1)。retention が過度に攻撃的な可能性があります。\n'
      '.river/tmp/a:0: [severity=minor] reason=age, sizeBytes=1000, mtimeAge=20420日\n')

# 11. gate failures
base = json.loads(doc([E('.river/tmp/a', 1, NOW)], scope='tmp'))
for name, raw in [
    ('dup-key', b'{"now":1,' + json.dumps(base)[1:].encode()),
    ('bad-utf8', json.dumps(base).replace('.river/tmp/a', '.river/tmp/\udcff', 1).encode('utf-8', 'surrogateescape')),
    ('deep65', json.dumps(dict(base, x=json.loads('[' * 64 + ']' * 64))).encode()),
    ('huge-exp', json.dumps(base).replace('"now": %d' % NOW, '"now": 1e999999999').encode()),
    ('frac-size', json.dumps(base).replace('"sizeBytes": 1', '"sizeBytes": 1.5').encode()),
    ('malformed-exclude', json.dumps(dict(base, excludes=['a['])).encode()),
    ('bad-scope', json.dumps(base).replace('"tmp"', '"all"').encode()),
    ('empty-path', json.dumps(base).replace('.river/tmp/a', '').encode()),
]:
    check('gate-' + name, run(raw), NO_REVIEW + '\n')
check('deep64-ok', run(json.dumps(dict(base, x=json.loads('[' * 63 + ']' * 63))).encode()).split('\n')[0] + '\n',
      '(summary):1: scope tmp: keep 1, remove 0, hard-guarded 0, excluded 0\n')

# 12. stream: two docs then a syntax error then a good doc (not read)
good = doc([E('.river/tmp/a', 1, NOW)], scope='tmp')
out = run(good + '\n' + good + ' {"x": ' + '\n' + good)
s = '(summary):1: scope tmp: keep 1, remove 0, hard-guarded 0, excluded 0\n'
check('stream-syntax-stop', out, s + s + NO_REVIEW + '\n')

# 13. lone surrogate escape -> path not canonical (out of scope); NFC matching of guards/excludes
out = run(json.dumps(json.loads(doc([E('.river/tmp/\ud800', 1, NOW), E('.river/tmp/cafe\u0301', 1, NOW - 999 * DAY)],
                                     scope='tmp', excludes=['caf\u00e9']))))
check('surrogate-nfc', out, '(summary):1: scope tmp: keep 1, remove 0, hard-guarded 0, excluded 1\n')

# 14. guard-exclude warning and hard guard with /**
out = run(doc([E('artifacts/evals/latest/x.json', 1, NOW - 400 * DAY), E('artifacts/evals/r/y.json', 1, NOW)],
              scope='evals', guards=['artifacts/evals/latest/**'], excludes=['latest/']))
check('guard-exclude', out,
      '(summary):1: scope evals: keep 2, remove 0, hard-guarded 1, excluded 0\n'
      '(warning):1: [severity=major] hard guard artifacts/evals/latest/x.json が exclude glob と重複しています。保持は維持されますが設定を整理してください。\n'
      '(warning):1: [severity=major] hard guard artifacts/evals/latest/x.json が retention 設定 (age) と重複しています。保持は維持されますが設定を整理してください。\n')

# 15. review-artifacts scope membership
out = run(doc([E('artifacts/review-artifact.json', 1, NOW), E('artifacts/review-.md', 1, NOW),
               E('artifacts/review-artifact.schema.json', 1, NOW), E('artifacts/x/review-1.md', 1, NOW),
               E('artifacts/review-artifactjson', 1, NOW)], scope='review-artifacts',
              guards=['artifacts/review-artifact.schema.json']), '--json')
j = json.loads(out)
check('review-scope', json.dumps(j['counts']) + '\n',
      json.dumps({"keep": 3, "remove": 0, "hardGuarded": 1, "excluded": 0, "mtimeMissing": 0, "mtimeInconsistent": 0,
                  "duplicates": 0, "directories": 0, "outOfScope": 2}) + '\n')

print('\n%d failures' % len(FAILS))
sys.exit(1 if FAILS else 0)
