#!/usr/bin/env python3
"""Seeded random generator of plangate-gc skill input documents.

Usage:
  python3 gen.py SEED            one document on stdout (compact, one line)
  python3 gen.py --stream SEED N N documents, one per line (JSON Lines)

Exercises docs/spec.md Part A: four scopes, in/out of scope and non-canonical
paths, directories (type dir, trailing '/', implied by a child), duplicates,
hard guards (with '/**', trailing '/'), built-in single sources, excludes
(negation, anchoring, '**', classes, escapes), null/zero/negative/future
mtimes, ties at count/size/age boundaries, tiny maxSizeMb, fractional and
invalid retention, number spellings (1e3, 1.0, 1E+1), and gate failures
(missing keys, wrong types, empty paths, bad scope, malformed exclude,
duplicate key, deep nesting, invalid UTF-8, syntax errors).
Deterministic for a given seed (stdlib random.Random). Output is bytes.
"""
import random
import sys

DAY = 86400


class Lit:
    """A raw JSON text fragment (number literal, or anything pre-rendered)."""

    def __init__(self, text):
        self.text = text


class Obj:
    """JSON object as a list of (key, value) pairs (allows duplicate keys)."""

    def __init__(self, pairs):
        self.pairs = list(pairs)

    def get(self, k):
        for kk, v in self.pairs:
            if kk == k:
                return v
        return None

    def set(self, k, v):
        for i, (kk, _) in enumerate(self.pairs):
            if kk == k:
                self.pairs[i] = (k, v)
                return
        self.pairs.append((k, v))

    def delete(self, k):
        self.pairs = [(kk, v) for kk, v in self.pairs if kk != k]


def enc_str(s, rng=None, ascii_escape=False):
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == '\\':
            out.append('\\\\')
        elif o < 0x20 or (0xD800 <= o <= 0xDFFF):
            out.append('\\u%04x' % o)
        elif ascii_escape and o > 0x7E:
            if o > 0xFFFF:
                v = o - 0x10000
                out.append('\\u%04x\\u%04x' % (0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF)))
            else:
                out.append('\\u%04X' % o)
        else:
            out.append(ch)
    out.append('"')
    return ''.join(out)


def dump(v, rng, ws=False):
    sep = ', ' if ws else ','
    col = ': ' if ws else ':'
    if isinstance(v, Lit):
        return v.text
    if v is None:
        return 'null'
    if v is True:
        return 'true'
    if v is False:
        return 'false'
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, str):
        return enc_str(v, ascii_escape=rng.random() < 0.05)
    if isinstance(v, Obj):
        return '{' + sep.join(enc_str(k) + col + dump(x, rng, ws) for k, x in v.pairs) + '}'
    if isinstance(v, dict):
        return dump(Obj(v.items()), rng, ws)
    if isinstance(v, list):
        return '[' + sep.join(dump(x, rng, ws) for x in v) + ']'
    raise TypeError(type(v))


def int_lit(rng, n, allow_forms=True):
    """Spell the integer n in one of several JSON forms (all integers)."""
    if not allow_forms or rng.random() < 0.8:
        return Lit(str(n))
    forms = [str(n) + '.0', str(n) + '.00']
    if n != 0:
        s = str(abs(n))
        t = s.rstrip('0')
        z = len(s) - len(t)
        sign = '-' if n < 0 else ''
        if z > 0:
            forms.append('%s%se%d' % (sign, t, z))
            forms.append('%s%sE+%d' % (sign, t, z))
        if len(t) > 1:
            forms.append('%s%s.%se%d' % (sign, t[0], t[1:], len(t) - 1 + z))
    else:
        forms += ['-0', '0e5', '0.0e-3']
    return Lit(rng.choice(forms))


# ---------------------------------------------------------------------------
# path pools

FILES = {
    'memory': ['.river/memory/snapshots/2025-11-%02d.json', '.river/memory/emb/v%d.bin',
               '.river/memory/conv/c%d.md', '.river/memory/keep/k%d.json', '.river/memory/m%d.json',
               '.river/memory/snapshots/tmp%d.tmp', '.river/memory/a/b/c/deep%d.json'],
    'evals': ['artifacts/evals/run-%d/result.json', 'artifacts/evals/run-%d/snap.json',
              'artifacts/evals/ledger-%d.json', 'artifacts/evals/latest/s%d.json',
              'artifacts/evals/keep/k%d.json', 'artifacts/evals/x%d.tmp'],
    'review-artifacts': ['artifacts/review-artifact-%d.json', 'artifacts/review-%d.md',
                         'artifacts/review-artifact%d.json', 'artifacts/review-note%d.md'],
    'tmp': ['.river/tmp/%d.tmp', 'artifacts/.tmp/x%d', '.river/tmp/keep/a%d.tmp', '.river/tmp/s/%d.json',
            'artifacts/.tmp/deep/q%d.log'],
}
SPECIAL = {
    'memory': ['.river/memory/index.json'],
    'evals': ['artifacts/evals/latest', 'artifacts/evals/latest/summary.json'],
    'review-artifacts': ['artifacts/review-artifact.schema.json', 'artifacts/review-artifact.json',
                         'artifacts/review-.md'],
    'tmp': [],
}
OUT_OF_SCOPE = ['src/main.go', 'README.md', '.river/other/x.json', 'artifacts/other.json',
                'artifacts/sub/review-1.md', 'artifacts/review-notes.txt', 'artifacts/review-artifact.jsonx',
                '.river/memoryx/a.json', 'artifacts/evalsx/a.json', '.river/tmpx/a', 'artifacts/.tmpx/b',
                'Artifacts/evals/a.json', '.river/memory', 'artifacts/evals', '.river/tmp']
UNICODE = ['caf\u00e9', 'cafe\u0301', '\u65e5\u672c', 'A\u030a', '\u00c5', 'x\u00a0y', 'e\u0301\u0301',
           '\U0001F600', 'k\u212a', 'a&b<c>', 'q"t', 'tab\there', 'ls\u2028ps', '{n}', '\x7f']
BUILTIN = {'memory': '.river/memory/index.json', 'evals': 'artifacts/evals/latest',
           'review-artifacts': 'artifacts/review-artifact.schema.json', 'tmp': None}


def scope_prefix(scope, rng):
    return {'memory': '.river/memory/', 'evals': 'artifacts/evals/',
            'tmp': rng.choice(['.river/tmp/', 'artifacts/.tmp/']),
            'review-artifacts': 'artifacts/'}[scope]


def make_path(rng, scope, i):
    r = rng.random()
    if r < 0.62:
        t = rng.choice(FILES[scope])
        return t % (i % 31 + 1) if '%' in t else t
    if r < 0.70 and SPECIAL[scope]:
        return rng.choice(SPECIAL[scope])
    if r < 0.76:
        other = rng.choice([s for s in FILES if s != scope])
        return rng.choice(FILES[other]) % (i % 7 + 1)
    if r < 0.80:
        return rng.choice(OUT_OF_SCOPE)
    if r < 0.86:
        u = rng.choice(UNICODE)
        if scope == 'review-artifacts':
            return 'artifacts/review-%s.md' % u
        return scope_prefix(scope, rng) + u + rng.choice(['.json', '/f.tmp', ''])
    # non-canonical variants of an in-scope path
    base = rng.choice(FILES[scope]) % (i % 5 + 1)
    k = rng.randrange(9)
    if k == 0:
        return base.replace('/', '//', 1)
    if k == 1:
        return './' + base
    if k == 2:
        return base + '/'
    if k == 3:
        return base.replace('/', '\\')
    if k == 4:
        return '/' + base
    if k == 5:
        j = base.rfind('/')
        return base[:j] + '/../' + base[j + 1:]
    if k == 6:
        j = base.rfind('/')
        return base[:j] + '/.' + base[j:]
    if k == 7:
        return base + '\x00'
    return base[:-1] + '\ud800'


def parent_of(p):
    j = p.rfind('/')
    return p[:j] if j > 0 else None


EXCLUDES = {
    'any': ['*.tmp', '!keep.tmp', '**/keep/**', '**/keep/', 'keep', '!**/k1.json', '*.bin', '[ab]*.json',
            '[!c]*.md', '*[0-9].json', '**/*.log', 'deep*', '!deep3.json', '?.tmp', '[[:digit:]].tmp',
            '\\!x', 'caf\u00e9*', 'cafe\u0301*', 'x\\[1\\].json', '*.json', '!*.json', 'snapshots/',
            '/snapshots', '**', '!**/', 'a/**/c', '\\#c', 'm1?.json', '*  ', 'k[0-4]*', 'artifacts/keep/**',
            '[]]x', '[a-]x', '!', 'latest/', 'review-*', '!review-1*.md', '[[:upper:]]*', '*/*',
            ],
    'memory': ['.river/memory/keep/', '/.river/memory/snapshots/2025-11-0*', '.river/memory/**/c1*',
               '!.river/memory/keep/k2.json', '.river/memory/index.json', '.river/memory/', '.river/**/emb'],
    'evals': ['artifacts/evals/latest/**', '/artifacts/evals/run-1/', 'artifacts/evals/run-[2-4]/**',
              '!artifacts/evals/run-3/**', 'artifacts/evals/*.json', 'run-*/'],
    'review-artifacts': ['artifacts/review-artifact-1*.json', 'artifacts/review-*.md', '!artifacts/review-2.md',
                         '/artifacts/review-artifact.schema.json', 'artifacts/*'],
    'tmp': ['.river/tmp/', '!.river/tmp/keep/', 'artifacts/.tmp/**', '.river/tmp/*.tmp', '!.river/tmp/1*.tmp',
            '.tmp/'],
}
MALFORMED = ['', '   ', '#comment', 'abc\\', 'a[b', '[!]', '[]', 'x[[:alpha:]', 'a\x00b', '[\\', '[a-\\']


def gen_doc(rng, allow_syntax_error=True):
    scope = rng.choice(['memory', 'evals', 'review-artifacts', 'tmp'])
    now = rng.choice([1764374400] * 6 + [1700000000, 1700000000, 86400 * 400, 200000, 1, 0, 9007199254740991])

    # retention
    days_v = rng.choice([90, 90, 30, 7, 1, 0, 0.5, 1.5, 2.25, 365, 100000, '1e3', '1E1', '9e1', '90.0',
                         '0.25e1', '1e999', '1e-400', '-0', '3.0000000000000001'])
    if rng.random() < 0.05:
        days_v = rng.choice([-1, '-0.5', '-1e-400'])
    maxe_v = rng.choice([1000, 1000, 5, 3, 2, 1, 4, 10, '1.0', '1e1', '3e0', '2.0e0', '1e30', '1e999'])
    if rng.random() < 0.06:
        maxe_v = rng.choice([0, -1, 2.5, '1.5', '0.0', '1e-1', '-0', '1.0000000000000000001'])
    maxmb_v = rng.choice([500, 500, 1, 0.001, 0.0005, 0.002, 1e-6, 0.5, '1e-3', '2E-3', '1e-400',
                          '0.0009765625', '0.00048828125', '1e400', '1e30'])
    if rng.random() < 0.05:
        maxmb_v = rng.choice([0, -1, '-0', '0.0', '-1e-3'])

    def num_text(v):
        if isinstance(v, str):
            return Lit(v)
        if isinstance(v, int):
            return int_lit(rng, v)
        return Lit(repr(v))

    retention = Obj([('days', num_text(days_v)), ('maxEntries', num_text(maxe_v)),
                     ('maxSizeMb', num_text(maxmb_v))])
    if rng.random() < 0.2:
        retention.pairs.reverse()

    # numeric helpers for boundaries
    def days_float():
        return float(days_v) if not isinstance(days_v, str) else float(days_v)

    try:
        cutoff = float(now) - days_float() * 86400.0
    except OverflowError:
        cutoff = float('-inf')

    # inventory
    n = rng.choice([1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 30])
    ents = []
    used = []
    tie_mtimes = [now - rng.randrange(0, 200) * DAY // rng.choice([1, 2, 4]) for _ in range(3)]
    for i in range(n):
        p = make_path(rng, scope, i)
        used.append(p)
        e = Obj([('path', p)])
        # size
        sz = rng.choice([0, 1, 100, 300, 500, 512, 700, 1000, 1024, 1048, 1049, 2048, 4096, 1048576,
                         524288, 10 ** 6, 9007199254740991])
        if rng.random() < 0.1:
            sz = rng.randrange(0, 5000)
        e.pairs.append(('sizeBytes', int_lit(rng, sz)))
        # mtime
        r = rng.random()
        if r < 0.07:
            mt = None
        elif r < 0.11:
            mt = rng.choice([0, -1, -86400, now + 1, now + DAY * 3, -9007199254740991])
        elif r < 0.30:
            mt = rng.choice(tie_mtimes)
        elif r < 0.40 and cutoff > -1e300 and cutoff == cutoff:
            c = int(cutoff) if abs(cutoff) < 1e18 else now
            mt = rng.choice([c, c - 1, c + 1])
        elif r < 0.45:
            mt = now
        else:
            mt = now - rng.randrange(0, 400) * DAY - rng.randrange(0, DAY)
        if mt is not None and mt > 9007199254740991:
            mt = 9007199254740991
        e.pairs.append(('mtimeEpoch', None if mt is None else int_lit(rng, mt)))
        if rng.random() < 0.5:
            rng.shuffle(e.pairs)
        if rng.random() < 0.1:
            e.pairs.append(('type', rng.choice(['file', 'file', 'dir'])))
        if rng.random() < 0.05:
            e.pairs.append(('x-extra', rng.choice([1, 'y', None, [1, {'a': 2}]])))
        ents.append(e)
    # directories implied by a child
    if rng.random() < 0.2:
        cand = [parent_of(p) for p in used if isinstance(p, str) and parent_of(p)]
        if cand:
            d = rng.choice(cand)
            ents.append(Obj([('path', d), ('sizeBytes', Lit('4096')), ('mtimeEpoch', Lit(str(now - DAY)))]))
    # duplicates
    if rng.random() < 0.15 and ents:
        src = rng.choice(ents)
        dup = Obj(list(src.pairs))
        dup.set('sizeBytes', int_lit(rng, rng.choice([0, 5, 999, 4096])))
        if rng.random() < 0.5:
            dup.set('mtimeEpoch', Lit(str(now - rng.randrange(0, 300) * DAY)))
        ents.insert(rng.randrange(len(ents) + 1), dup)
    # NFC/NFD twin
    if rng.random() < 0.05:
        pre = scope_prefix(scope, rng) if scope != 'review-artifacts' else 'artifacts/review-'
        suf = '.md' if scope == 'review-artifacts' else '.json'
        for u in ('caf\u00e9', 'cafe\u0301'):
            ents.append(Obj([('path', pre + u + suf), ('sizeBytes', Lit('10')), ('mtimeEpoch', Lit(str(now - 200 * DAY)))]))
    rng.shuffle(ents)

    doc = Obj([])
    inv = Obj([('scope', scope), ('paths', ents)])
    doc.pairs.append(('inventory', inv))
    doc.pairs.append(('retention', retention))
    doc.pairs.append(('now', int_lit(rng, now)))

    # hard guards
    r = rng.random()
    if r < 0.35:
        pass
    else:
        guards = []
        b = BUILTIN[scope]
        if b and rng.random() < 0.6:
            guards.append(b + rng.choice(['', '', '/**', '/']))
        for _ in range(rng.randrange(0, 3)):
            g = rng.choice([
                '.river/memory/keep', '.river/memory/keep/**', '.river/memory/keep/', 'artifacts/evals/run-1',
                'artifacts/evals/run-2/**', 'artifacts/review-1.md', '.river/tmp/keep/', '.river/memory/m1.json',
                '.river/memory', '.river/memory/index.json', 'artifacts/evals/latest', '',
                'artifacts/review-artifact.schema.json', '.river/memory/caf\u00e9.json', '.river/memory/cafe\u0301.json',
                'artifacts/evals/latest/**/', '.river/memory/snapshots/2025-11-0', '/**', '**'])
            guards.append(g)
        if not guards or rng.random() < 0.1:
            guards = guards or []
        doc.pairs.append(('hardGuards', guards))

    # excludes
    if rng.random() < 0.55:
        ex = []
        for _ in range(rng.randrange(0, 4)):
            pool = EXCLUDES['any'] + EXCLUDES[scope] * 2
            ex.append(rng.choice(pool))
        doc.pairs.append(('excludes', ex))
    if rng.random() < 0.05:
        doc.pairs.append(('x-unknown', Obj([('nested', [1, 2, Obj([('k', 'v')])])])))
    if rng.random() < 0.3:
        rng.shuffle(doc.pairs)

    raw = None
    # gate failures (~15%)
    if rng.random() < 0.15:
        raw = gate_failure(rng, doc, inv, ents, retention, allow_syntax_error)
    if raw is None:
        raw = dump(doc, rng, ws=rng.random() < 0.2).encode('utf-8', 'surrogatepass')
    return raw


def gate_failure(rng, doc, inv, ents, retention, allow_syntax_error):
    kinds = ['missing-inventory', 'missing-scope', 'missing-paths', 'empty-paths', 'bad-scope', 'missing-path',
             'empty-path', 'path-not-string', 'missing-size', 'size-negative', 'size-fraction', 'size-too-big',
             'size-string', 'missing-mtime', 'mtime-string', 'mtime-fraction', 'mtime-too-big', 'missing-retention',
             'retention-string', 'retention-null', 'missing-now', 'now-null', 'now-negative', 'now-fraction',
             'now-too-big', 'hardguards-not-array', 'hardguard-number', 'excludes-malformed', 'excludes-not-array',
             'bad-type', 'dup-key', 'dup-key-nested', 'deep', 'deep-boundary', 'root-array', 'entry-not-object',
             'inventory-array', 'invalid-utf8', 'dup-key-escaped', 'bool-size', 'now-huge-exp']
    if allow_syntax_error:
        kinds += ['syntax-truncated', 'syntax-trailing-comma', 'syntax-nan']
    k = rng.choice(kinds)
    e0 = ents[0] if ents else None
    if k == 'missing-inventory':
        doc.delete('inventory')
    elif k == 'missing-scope':
        inv.delete('scope')
    elif k == 'missing-paths':
        inv.delete('paths')
    elif k == 'empty-paths':
        inv.set('paths', [])
    elif k == 'bad-scope':
        inv.set('scope', rng.choice(['all', 'Memory', '', 'review_artifacts', 1]))
    elif k == 'missing-path':
        e0.delete('path')
    elif k == 'empty-path':
        e0.set('path', '')
    elif k == 'path-not-string':
        e0.set('path', rng.choice([1, None, ['a']]))
    elif k == 'missing-size':
        e0.delete('sizeBytes')
    elif k == 'size-negative':
        e0.set('sizeBytes', Lit(rng.choice(['-1', '-1e0', '-0.5'])))
    elif k == 'size-fraction':
        e0.set('sizeBytes', Lit(rng.choice(['1.5', '1e-1', '10.000000000000000001'])))
    elif k == 'size-too-big':
        e0.set('sizeBytes', Lit(rng.choice(['9007199254740992', '1e16', '9.007199254740992e15', '1e999999999'])))
    elif k == 'size-string':
        e0.set('sizeBytes', '100')
    elif k == 'missing-mtime':
        e0.delete('mtimeEpoch')
    elif k == 'mtime-string':
        e0.set('mtimeEpoch', rng.choice(['2025-01-01T00:00:00Z', True]))
    elif k == 'mtime-fraction':
        e0.set('mtimeEpoch', Lit('1700000000.5'))
    elif k == 'mtime-too-big':
        e0.set('mtimeEpoch', Lit(rng.choice(['9007199254740992', '-9007199254740992', '1e20'])))
    elif k == 'missing-retention':
        rng.choice([lambda: doc.delete('retention'), lambda: retention.delete(rng.choice(['days', 'maxEntries', 'maxSizeMb']))])()
    elif k == 'retention-string':
        retention.set(rng.choice(['days', 'maxEntries', 'maxSizeMb']), '90')
    elif k == 'retention-null':
        retention.set(rng.choice(['days', 'maxEntries', 'maxSizeMb']), None)
    elif k == 'missing-now':
        doc.delete('now')
    elif k == 'now-null':
        doc.set('now', None)
    elif k == 'now-negative':
        doc.set('now', Lit('-1'))
    elif k == 'now-fraction':
        doc.set('now', Lit('1764374400.5'))
    elif k == 'now-too-big':
        doc.set('now', Lit('9007199254740992'))
    elif k == 'now-huge-exp':
        doc.set('now', Lit(rng.choice(['1e999999999', '1e-999999999', '0.1e1'])))
    elif k == 'hardguards-not-array':
        doc.set('hardGuards', rng.choice(['.river/memory/index.json', None, Obj([])]))
    elif k == 'hardguard-number':
        doc.set('hardGuards', ['.river/memory/index.json', 3])
    elif k == 'excludes-malformed':
        doc.set('excludes', ['*.tmp', rng.choice(MALFORMED)])
    elif k == 'excludes-not-array':
        doc.set('excludes', '*.tmp')
    elif k == 'bad-type':
        e0.set('type', rng.choice(['directory', 'File', None, 1]))
    elif k == 'dup-key':
        doc.pairs.append(('now', Lit('1764374400')))
    elif k == 'dup-key-nested':
        e0.pairs.append(('sizeBytes', Lit('1')))
    elif k == 'dup-key-escaped':
        e0.pairs.append(('\u0070ath', '.river/memory/x.json'))
        return dump_with_escaped_dup(rng, doc)
    elif k == 'deep':
        depth = rng.choice([65, 100, 1000, 100000])
        doc.pairs.append(('x-deep', Lit('[' * depth + ']' * depth)))
    elif k == 'deep-boundary':
        # 63 containers inside the root object: 64 levels total (accepted by ref.py)
        depth = rng.choice([62, 63, 64])
        doc.pairs.append(('x-deep', Lit('[' * depth + ']' * depth)))
    elif k == 'root-array':
        return b'[' + dump(doc, rng).encode('utf-8', 'surrogatepass') + b']'
    elif k == 'entry-not-object':
        inv.set('paths', ents + [rng.choice(['x', 1, None, []])])
    elif k == 'inventory-array':
        doc.set('inventory', [inv])
    elif k == 'invalid-utf8':
        raw = dump(doc, rng).encode('utf-8', 'surrogatepass')
        i = raw.find(b'"path":"')
        if i < 0:
            i = 0
        bad = rng.choice([b'\xff', b'\xc3', b'\xed\xa0\x80', b'\xc0\xaf', b'\xf4\x90\x80\x80'])
        j = i + len(b'"path":"')
        return raw[:j] + bad + raw[j:]
    elif k == 'bool-size':
        e0.set('sizeBytes', True)
    elif k == 'syntax-truncated':
        raw = dump(doc, rng).encode('utf-8', 'surrogatepass')
        return raw[:rng.randrange(1, max(2, len(raw)))]
    elif k == 'syntax-trailing-comma':
        raw = dump(doc, rng).encode('utf-8', 'surrogatepass')
        return raw[:-1] + b',}'
    elif k == 'syntax-nan':
        doc.set('now', Lit(rng.choice(['NaN', 'Infinity', '01', '1.', '+1', '.5'])))
    return None


def dump_with_escaped_dup(rng, doc):
    # second "path" key written as "\u0070ath" -> a duplicate after unescaping
    raw = dump(doc, rng)
    raw = raw.replace('"path":', '"\\u0070ath":', 1) if raw.count('"path":') > 1 else raw
    return raw.encode('utf-8', 'surrogatepass')


def main(argv):
    if len(argv) >= 2 and argv[1] == '--stream':
        if len(argv) != 4:
            sys.stderr.write('usage: gen.py --stream SEED N\n')
            return 2
        seed, n = int(argv[2]), int(argv[3])
        rng0 = random.Random(seed)
        out = []
        for i in range(n):
            rng = random.Random(seed * 1000003 + i)
            last = i == n - 1
            raw = gen_doc(rng, allow_syntax_error=last and rng0.random() < 0.3)
            out.append(raw)
        sep = [b'\n', b'\n', b'\n', b' ', b'\r\n', b'\n\n\t', b'']
        buf = b''
        for i, raw in enumerate(out):
            buf += raw
            if i < n - 1:
                buf += rng0.choice(sep) if raw.endswith(b'}') else b'\n'
        sys.stdout.buffer.write(buf + b'\n')
        return 0
    if len(argv) != 2:
        sys.stderr.write('usage: gen.py SEED | gen.py --stream SEED N\n')
        return 2
    rng = random.Random(int(argv[1]))
    sys.stdout.buffer.write(gen_doc(rng) + b'\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
