#!/usr/bin/env python3
"""Independent reference implementation of plangate-gc (docs/spec.md Part A).

Usage: python3 ref.py [--json] < docs
Reads one or more concatenated JSON documents on stdin and writes, per
document, the Japanese text block (A10) or one compact JSON line (A11).
Stdlib only. See AMBIGUITIES.md for every interpretation choice.
"""
import bisect
import math
import re
import os
import sys
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jsonstream  # noqa: E402
from jsonstream import Num, SyntaxErr  # noqa: E402
from ignore import PatternList, malformed_reason  # noqa: E402
from templates import TEMPLATES, NO_REVIEW  # noqa: E402

try:
    sys.set_int_max_str_digits(0)
except AttributeError:
    pass

SKILL = 'plangate-gc-deterministic'
MAX_SAFE = 9007199254740991
SCOPES = ('memory', 'evals', 'review-artifacts', 'tmp', 'runs', 'memory-entries', 'eval-ledger')
# Built-in single sources per scope (SPEC A6); evals has two since Part D:
# the current run and the eval ledger.
SINGLE_SOURCES = {
    'memory': ('.river/memory/index.json',),
    'evals': ('artifacts/evals/latest', 'artifacts/evals/results.jsonl'),
    'review-artifacts': ('artifacts/review-artifact.schema.json',),
    'tmp': (),
    'runs': (),
    'memory-entries': (),
    'eval-ledger': (),
}


_PLACEHOLDER = re.compile(r'\{([A-Za-z]+)\}')


def fill(name, **kw):
    """Substitute {x} placeholders of a SPEC template in one pass (a path
    that itself contains '{n}' is never re-substituted). Integers are
    rendered as plain ASCII digits."""
    tpl = TEMPLATES[name]

    def rep(m):
        v = kw[m.group(1)]
        return str(v)
    return _PLACEHOLDER.sub(rep, tpl)


def nfc(s):
    try:
        return unicodedata.normalize('NFC', s)
    except Exception:
        return s


def u8(s):
    """UTF-8 bytes of a str that may hold lone surrogates."""
    return s.encode('utf-8', 'surrogatepass')


# ---------------------------------------------------------------------------
# gate (A2)

def _ptr(*toks):
    out = ''
    for t in toks:
        out += '/' + str(t).replace('~', '~0').replace('/', '~1')
    return out


def _typename(v):
    if isinstance(v, bool):
        return 'boolean'
    if v is None:
        return 'null'
    if isinstance(v, dict):
        return 'object'
    if isinstance(v, list):
        return 'array'
    if isinstance(v, str):
        return 'string'
    if isinstance(v, Num):
        return 'integer' if v.is_integer() else 'number'
    return '?'


def _safe_int(v, lo, hi):
    """v is Num: integer and lo <= v <= hi (exact)."""
    if not isinstance(v, Num) or not v.is_integer():
        return False
    x = v.int_value()
    return lo <= x <= hi


def gate(doc, st):
    errs = []
    if st is not None:
        if st.bad_utf8:
            errs.append(('', 'I-JSON: invalid UTF-8 in a string'))
        for p in st.dup_keys:
            errs.append((p, 'I-JSON: duplicate key'))
        if st.too_deep:
            errs.append(('', 'I-JSON: nesting deeper than 64 levels'))

    def E(ptr, msg):
        errs.append((ptr, msg))

    if not isinstance(doc, dict):
        E('', 'expected object, got %s' % _typename(doc))
        return sorted(errs)
    inv = doc.get('inventory', _MISSING)
    if inv is _MISSING:
        E('', "missing property 'inventory'")
    elif not isinstance(inv, dict):
        E('/inventory', 'expected object, got %s' % _typename(inv))
    else:
        sc = inv.get('scope', _MISSING)
        if sc is _MISSING:
            E('/inventory', "missing property 'scope'")
        elif not isinstance(sc, str) or sc not in SCOPES:
            E('/inventory/scope', 'must be one of ' + ', '.join(SCOPES))
        paths = inv.get('paths', _MISSING)
        if paths is _MISSING:
            E('/inventory', "missing property 'paths'")
        elif not isinstance(paths, list):
            E('/inventory/paths', 'expected array, got %s' % _typename(paths))
        elif len(paths) < 1:
            E('/inventory/paths', 'minItems: got 0, want 1')
        else:
            for i, ent in enumerate(paths):
                base = _ptr('inventory', 'paths', i)
                if not isinstance(ent, dict):
                    E(base, 'expected object, got %s' % _typename(ent))
                    continue
                p = ent.get('path', _MISSING)
                if p is _MISSING:
                    E(base, "missing property 'path'")
                elif not isinstance(p, str):
                    E(base + '/path', 'expected string, got %s' % _typename(p))
                elif len(p) < 1:
                    E(base + '/path', 'minLength: got 0, want 1')
                sb = ent.get('sizeBytes', _MISSING)
                if sb is _MISSING:
                    E(base, "missing property 'sizeBytes'")
                elif not _safe_int(sb, 0, MAX_SAFE):
                    E(base + '/sizeBytes', 'must be an integer in [0, 2^53-1]')
                mt = ent.get('mtimeEpoch', _MISSING)
                if mt is _MISSING:
                    E(base, "missing property 'mtimeEpoch'")
                elif mt is not None and not _safe_int(mt, -MAX_SAFE, MAX_SAFE):
                    E(base + '/mtimeEpoch', 'must be null or an integer in [-(2^53-1), 2^53-1]')
                if 'type' in ent:
                    ty = ent['type']
                    if not isinstance(ty, str) or ty not in ('file', 'dir'):
                        E(base + '/type', "must be 'file' or 'dir'")
    ret = doc.get('retention', _MISSING)
    if ret is _MISSING:
        E('', "missing property 'retention'")
    elif not isinstance(ret, dict):
        E('/retention', 'expected object, got %s' % _typename(ret))
    else:
        for k in ('days', 'maxEntries', 'maxSizeMb'):
            v = ret.get(k, _MISSING)
            if v is _MISSING:
                E('/retention', "missing property '%s'" % k)
            elif not isinstance(v, Num):
                E('/retention/' + k, 'expected number, got %s' % _typename(v))
    now = doc.get('now', _MISSING)
    if now is _MISSING:
        E('', "missing property 'now'")
    elif not _safe_int(now, 0, MAX_SAFE):
        E('/now', 'must be an integer in [0, 2^53-1]')
    if 'hardGuards' in doc:
        hg = doc['hardGuards']
        if not isinstance(hg, list):
            E('/hardGuards', 'expected array, got %s' % _typename(hg))
        else:
            for i, g in enumerate(hg):
                if not isinstance(g, str):
                    E(_ptr('hardGuards', i), 'expected string, got %s' % _typename(g))
    if 'excludes' in doc:
        ex = doc['excludes']
        if not isinstance(ex, list):
            E('/excludes', 'expected array, got %s' % _typename(ex))
        else:
            for i, g in enumerate(ex):
                if not isinstance(g, str):
                    E(_ptr('excludes', i), 'expected string, got %s' % _typename(g))
                else:
                    r = malformed_reason(g)
                    if r:
                        E(_ptr('excludes', i), 'malformed exclude pattern: ' + r)
    return sorted(errs)


_MISSING = object()


# ---------------------------------------------------------------------------
# paths and scopes (A4, A6)

def is_canonical(p):
    try:
        p.encode('utf-8')
    except UnicodeEncodeError:
        return False
    if p == '' or '\x00' in p or '\\' in p or p.startswith('/'):
        return False
    for seg in p.split('/'):
        if seg == '' or seg == '.' or seg == '..':
            return False
    return True


def in_scope(n, scope):
    if scope == 'memory':
        return n.startswith('.river/memory/')
    if scope == 'evals':
        return n.startswith('artifacts/evals/')
    if scope == 'tmp':
        return n.startswith('.river/tmp/') or n.startswith('artifacts/.tmp/')
    if scope == 'runs':
        return n.startswith('.river/runs/')
    if scope == 'memory-entries':
        return n.startswith('.river/memory/index.json#')
    if scope == 'eval-ledger':
        return n.startswith('artifacts/evals/results.jsonl#')
    if scope == 'review-artifacts':
        if not n.startswith('artifacts/'):
            return False
        name = n[len('artifacts/'):]
        if '/' in name:
            return False
        a = 'review-artifact'
        if name.startswith(a) and name[len(a):].endswith('.json'):
            return True
        b = 'review-'
        if name.startswith(b) and name[len(b):].endswith('.md'):
            return True
        return False
    return False


def guard_prime(g):
    if g.endswith('/**'):
        return g[:-3]
    if g.endswith('/'):
        return g[:-1]
    return g


def covers(guards_prime, p):
    for g in guards_prime:
        if p == g or p.startswith(g + '/'):
            return True
    return False


# ---------------------------------------------------------------------------
# judgement (A3, A7, A8, A9)

class Entry:
    __slots__ = ('path', 'pb', 'nfc', 'size', 'mtime')

    def __init__(self, path, size, mtime):
        self.path = path
        self.pb = u8(path)
        self.nfc = nfc(path)
        self.size = size
        self.mtime = mtime


def judge(doc):
    inv = doc['inventory']
    scope = inv['scope']
    ents = inv['paths']
    ret = doc['retention']
    now = doc['now'].int_value()
    in_guards = doc.get('hardGuards', [])
    excludes = doc.get('excludes', [])
    days, maxe, maxmb = ret['days'], ret['maxEntries'], ret['maxSizeMb']

    R = {'scope': scope, 'now': now, 'retention': (days.lit, maxe.lit, maxmb.lit)}

    # --- invalid retention (A8)
    invalid = []
    if days.sign() < 0:
        invalid.append(('days', days.lit))
    if not maxe.is_integer() or maxe.sign() <= 0:
        invalid.append(('maxEntries', maxe.lit))
    if maxmb.sign() <= 0:
        invalid.append(('maxSizeMb', maxmb.lit))

    # --- classification steps 1-2
    raw_sorted = sorted(set(e['path'] for e in ents))

    def has_child(p):
        q = p + '/'
        i = bisect.bisect_left(raw_sorted, q)
        return i < len(raw_sorted) and raw_sorted[i].startswith(q)

    directories = 0
    out_of_scope = 0
    cands = []
    for e in ents:
        p = e['path']
        if e.get('type') == 'dir' or p.endswith('/') or has_child(p):
            directories += 1
            continue
        if not is_canonical(p) or not in_scope(nfc(p), scope):
            out_of_scope += 1
            continue
        mt = e['mtimeEpoch']
        cands.append(Entry(p, e['sizeBytes'].int_value(), None if mt is None else mt.int_value()))

    # step 3 duplicates (raw path identity)
    groups = {}
    order = []
    for c in cands:
        if c.path in groups:
            groups[c.path].append(c)
        else:
            groups[c.path] = [c]
            order.append(c.path)
    dup_paths = []
    uniques = []
    kept_size = 0
    for p in order:
        g = groups[p]
        if len(g) > 1:
            dup_paths.append(g[0])
            kept_size += max(x.size for x in g)
        else:
            uniques.append(g[0])

    sources = SINGLE_SOURCES[scope]
    builtin = sources[0] if sources else None
    builtin_p = [guard_prime(nfc(x)) for x in sources]
    input_p = [guard_prime(nfc(g)) for g in in_guards]
    all_p = input_p + builtin_p
    plist = PatternList([u8(nfc(x)) for x in excludes])

    def is_excluded(ent):
        return plist.excluded(u8(ent.nfc))

    guarded, excluded_l, missing, inconsistent, evaluable = [], [], [], [], []
    for c in uniques:
        if covers(all_p, c.nfc):
            guarded.append(c)
        elif is_excluded(c):
            excluded_l.append(c)
        elif c.mtime is None:
            missing.append(c)
        elif c.mtime <= 0 or c.mtime > now:
            inconsistent.append(c)
        else:
            evaluable.append(c)

    total = len(dup_paths) + len(uniques)   # keep + remove
    n_unusable = len(missing) + len(inconsistent)
    unreliable = 2 * n_unusable > total

    guards_missing = scope in ('memory', 'review-artifacts') and not covers(input_p, nfc(builtin))

    questions = []
    for k, lit in invalid:
        questions.append(('invalid-retention', fill('q_invalid_retention', key=k, literal=lit)))
    if unreliable:
        questions.append(('unreliable-mtime', fill('q_unreliable_mtime', n=n_unusable, total=total)))
    if guards_missing:
        questions.append(('guards-not-supplied', fill('q_guards_not_supplied', scope=scope, path=builtin)))
    R['questions'] = questions

    if invalid:
        R['status'] = 'handoff'
        R['whole'] = True
        return R
    R['whole'] = False

    # --- numbers (A3)
    days_f = days.as_float()
    cutoff = float(now) - days_f * 86400.0
    lim_f = maxmb.as_float() * 1048576.0
    limit = math.floor(lim_f) if math.isfinite(lim_f) else lim_f
    max_entries = maxe.int_value()

    removed = []  # (entry, reason, evkey, evval)
    rest = []
    for c in evaluable:
        if float(c.mtime) < cutoff:
            removed.append((c, 'age', 'mtimeAge', (now - c.mtime) // 86400))
        else:
            rest.append(c)
    rest.sort(key=lambda c: (c.mtime, c.pb), reverse=True)
    cum = 0
    for i, c in enumerate(rest):
        if i >= max_entries:
            removed.append((c, 'count', 'rank', i + 1))
            continue
        cum += c.size
        if cum > limit:
            removed.append((c, 'size', 'cumulativeBytes', cum))
    removed.sort(key=lambda r: r[0].pb)

    if unreliable:
        removed = []
    removed_paths = set(r[0].path for r in removed)
    remove_n = len(removed)
    keep_n = total - remove_n
    for c in uniques:
        if c.path not in removed_paths:
            kept_size += c.size

    # --- warnings (A9)
    def bypath(lst):
        return sorted(lst, key=lambda c: c.pb)

    W = []
    for c in bypath(guarded):
        if is_excluded(c):
            W.append(('guard-exclude', fill('w_guard_exclude', path=c.path)))
    for c in bypath(guarded):
        if c.mtime is not None and 0 < c.mtime <= now and float(c.mtime) < cutoff:
            W.append(('guard-retention', fill('w_guard_retention', path=c.path)))
    for c in bypath(guarded):
        if covers(builtin_p, c.nfc) and not covers(input_p, c.nfc):
            W.append(('unguarded-single-source', fill('w_unguarded', path=c.path)))
    if missing:
        W.append(('mtime-missing', fill('w_mtime_missing', n=len(missing), first=bypath(missing)[0].path)))
    if inconsistent:
        W.append(('mtime-inconsistent', fill('w_mtime_inconsistent', n=len(inconsistent),
                                             first=bypath(inconsistent)[0].path)))
    if dup_paths:
        W.append(('duplicate', fill('w_duplicate', n=len(dup_paths), first=bypath(dup_paths)[0].path)))
    if remove_n * 5 > total * 4:
        W.append(('aggressive', fill('w_aggressive', scope=scope, remove=remove_n, total=total)))

    R.update({
        'status': 'handoff' if unreliable else 'ok',
        'removed': removed,
        'keptSummary': (keep_n, kept_size),
        'counts': [('keep', keep_n), ('remove', remove_n), ('hardGuarded', len(guarded)),
                   ('excluded', len(excluded_l)), ('mtimeMissing', len(missing)),
                   ('mtimeInconsistent', len(inconsistent)), ('duplicates', len(dup_paths)),
                   ('directories', directories), ('outOfScope', out_of_scope)],
        'warnings': W,
    })
    return R


# ---------------------------------------------------------------------------
# rendering (A10, A11)

def render_text(R):
    out = []
    if not R['whole']:
        c = dict(R['counts'])
        out.append(fill('summary', scope=R['scope'], keep=c['keep'], remove=c['remove'],
                        hardGuarded=c['hardGuarded'], excluded=c['excluded']))
        for _, line in R['warnings']:
            out.append(line)
    for _, line in R['questions']:
        out.append(line)
    if not R['whole']:
        for ent, reason, k, v in R['removed']:
            if reason == 'age':
                out.append(fill('r_age', path=ent.path, n=ent.size, days=v))
            elif reason == 'count':
                out.append(fill('r_count', path=ent.path, n=ent.size, rank=v))
            else:
                out.append(fill('r_size', path=ent.path, n=ent.size, c=v))
    return ''.join(line + '\n' for line in out)


WARN_PREFIX = '(warning):1: [severity=major] '
QUESTION_PREFIX = '(question):1: '


def json_message(line, prefix):
    assert line.startswith(prefix)
    return line[len(prefix):]


_JESC = {'"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f'}


def jstr(s):
    out = ['"']
    for ch in s:
        if ch in _JESC:
            out.append(_JESC[ch])
        elif ord(ch) < 0x20:
            out.append('\\u%04x' % ord(ch))
        elif 0xD800 <= ord(ch) <= 0xDFFF:
            out.append('\\u%04x' % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return ''.join(out)


def render_json(R):
    parts = ['"version":"1"', '"skill":' + jstr(SKILL), '"status":' + jstr(R['status']),
             '"scope":' + jstr(R['scope']), '"now":%d' % R['now']]
    d, m, s = R['retention']
    parts.append('"retention":{"days":%s,"maxEntries":%s,"maxSizeMb":%s}' % (d, m, s))
    if R['whole']:
        parts.append('"removed":[]')
        parts.append('"evidence":[]')
        parts.append('"warnings":[]')
    else:
        parts.append('"removed":[' + ','.join(
            '{"path":%s,"sizeBytes":%d,"reason":"%s"}' % (jstr(e.path), e.size, r)
            for e, r, k, v in R['removed']) + ']')
        kc, ks = R['keptSummary']
        parts.append('"keptSummary":{"count":%d,"sizeBytes":%d}' % (kc, ks))
        parts.append('"counts":{' + ','.join('"%s":%d' % kv for kv in R['counts']) + '}')
        parts.append('"evidence":[' + ','.join(
            '{"path":%s,"reason":"%s","%s":%d}' % (jstr(e.path), r, k, v)
            for e, r, k, v in R['removed']) + ']')
        parts.append('"warnings":[' + ','.join(
            '{"kind":"%s","severity":"major","message":%s}' % (k, jstr(json_message(msg, WARN_PREFIX)))
            for k, msg in R['warnings']) + ']')
    parts.append('"questions":[' + ','.join(
        '{"kind":"%s","message":%s}' % (k, jstr(json_message(msg, QUESTION_PREFIX)))
        for k, msg in R['questions']) + ']')
    return '{' + ','.join(parts) + '}\n'


def render_no_review(errs, as_json):
    if as_json:
        items = ','.join('{"instanceLocation":%s,"message":%s}' % (jstr(p), jstr(m)) for p, m in errs)
        return ('{"version":"1","skill":"%s","status":"no_review","gate":{"errors":[%s]}}\n'
                % (SKILL, items))
    return NO_REVIEW + '\n'


# ---------------------------------------------------------------------------

def process(data, as_json, out, err, docno_base=0):
    pos = jsonstream.skip_ws(data, 0)
    n = len(data)
    docno = 0
    if pos >= n:
        errs = [('', 'empty input: no JSON document')]
        _emit_no_review(errs, as_json, out, err, 0)
        return
    while pos < n:
        try:
            doc, end, st = jsonstream.parse_value(data, pos)
        except SyntaxErr as e:
            _emit_no_review([('', 'JSON syntax error: %s' % e)], as_json, out, err, docno)
            return
        errs = gate(doc, st)
        if errs:
            _emit_no_review(errs, as_json, out, err, docno)
        else:
            R = judge(doc)
            out.append(render_json(R) if as_json else render_text(R))
        docno += 1
        pos = jsonstream.skip_ws(data, end)


def _emit_no_review(errs, as_json, out, err, docno):
    out.append(render_no_review(errs, as_json))
    for p, m in errs:
        err.append('document %d: %s: %s\n' % (docno, p if p else '(root)', m))


def main(argv):
    as_json = False
    args = argv[1:]
    for a in args:
        if a == '--json':
            as_json = True
        elif a in ('--lang=ja',):
            pass
        elif a in ('-h', '--help'):
            sys.stdout.write('usage: ref.py [--json] < documents\n')
            return 0
        else:
            sys.stderr.write('ref.py: unknown argument %r\nusage: ref.py [--json] < documents\n' % a)
            return 2
    try:
        data = sys.stdin.buffer.read()
    except OSError as e:
        sys.stderr.write('ref.py: read error: %s\n' % e)
        return 1
    out, err = [], []
    process(data, as_json, out, err)
    try:
        sys.stdout.buffer.write(''.join(out).encode('utf-8', 'surrogatepass'))
        sys.stdout.flush()
        if err:
            sys.stderr.write(''.join(err).encode('utf-8', 'backslashreplace').decode('utf-8'))
    except OSError:
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
