"""Strict streaming JSON reader for ref.py (SPEC A2).

Reads concatenated JSON values from a bytes buffer. Each value is parsed by
an iterative (non-recursive) parser so deep nesting cannot blow the stack.
It records I-JSON problems (invalid UTF-8 inside strings, duplicate keys,
nesting deeper than MAX_DEPTH containers) without stopping; a grammar error
raises SyntaxErr.

Values: dict (object, insertion ordered), list, str (may hold lone
surrogates from \\u escapes), Num (number literal kept verbatim), True,
False, None.
"""
import re

MAX_DEPTH = 64


class SyntaxErr(Exception):
    pass


class Num:
    """A JSON number: the literal as written plus an exact decomposition.

    value = (-1 if neg else 1) * int(digits) * 10**exp ; digits == '' means 0.
    exp may be a huge sentinel (|exp| >= 10**19) for absurd exponents.
    """
    __slots__ = ('lit', 'neg', 'digits', 'exp')

    def __init__(self, lit):
        self.lit = lit
        m = _NUM_FULL.fullmatch(lit)
        neg = m.group(1) == '-'
        ip = m.group(2)
        fp = m.group(3) or ''
        ex = m.group(4)
        digits = (ip + fp).lstrip('0')
        if not digits:
            self.neg, self.digits, self.exp = neg, '', 0
            return
        e = 0
        if ex:
            sign = -1 if ex[0] == '-' else 1
            es = ex.lstrip('+-').lstrip('0') or '0'
            if len(es) > 18:
                e = sign * 10 ** 19
            else:
                e = sign * int(es)
        e -= len(fp)
        stripped = digits.rstrip('0')
        e += len(digits) - len(stripped)
        self.neg, self.digits, self.exp = neg, stripped, e

    def is_zero(self):
        return self.digits == ''

    def sign(self):
        if self.digits == '':
            return 0
        return -1 if self.neg else 1

    def is_integer(self):
        return self.digits == '' or self.exp >= 0

    def int_value(self, cap_digits=40):
        """Exact integer value (requires is_integer). Magnitudes with more
        than cap_digits digits are clamped to +-10**cap_digits."""
        if self.digits == '':
            return 0
        nd = len(self.digits) + self.exp
        if nd > cap_digits:
            v = 10 ** cap_digits
        else:
            v = int(self.digits) * 10 ** self.exp
        return -v if self.neg else v

    def as_float(self):
        return float(self.lit)

    def __repr__(self):
        return 'Num(%s)' % self.lit


_NUM_FULL = re.compile(r'(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?')
_NUM_RE = re.compile(rb'-?(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?(?:[eE][+-]?[0-9]++)?')
_STR_RE = re.compile(rb'"(?:[^"\\\x00-\x1f]++|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*+"')
_ESC_RE = re.compile(rb'\\(?:(["\\/bfnrt])|u([0-9a-fA-F]{4}))')
_WS = re.compile(rb'[ \t\n\r]*+')
_SIMPLE_ESC = {b'"': '"', b'\\': '\\', b'/': '/', b'b': '\b', b'f': '\f',
               b'n': '\n', b'r': '\r', b't': '\t'}


_OPEN_OBJ = object()
_OPEN_ARR = object()


def skip_ws(buf, pos):
    return _WS.match(buf, pos).end()


class DocState:
    def __init__(self):
        self.bad_utf8 = False
        self.dup_keys = []      # pointers of objects with duplicate keys
        self.too_deep = False


def _decode_string(buf, pos, st):
    """buf[pos] == '"'. Returns (str, newpos)."""
    m = _STR_RE.match(buf, pos)
    if not m:
        # distinguish: find the reason for a helpful message
        raise SyntaxErr('invalid string at byte %d' % pos)
    raw = buf[pos + 1:m.end() - 1]
    if b'\\' not in raw:
        try:
            s = raw.decode('utf-8')
        except UnicodeDecodeError:
            st.bad_utf8 = True
            s = raw.decode('utf-8', 'replace')
        return s, m.end()
    out = []
    last = 0
    units = []  # pending \u code units

    def flush_units():
        i = 0
        while i < len(units):
            u = units[i]
            if 0xD800 <= u <= 0xDBFF and i + 1 < len(units) and 0xDC00 <= units[i + 1] <= 0xDFFF:
                out.append(chr(0x10000 + ((u - 0xD800) << 10) + (units[i + 1] - 0xDC00)))
                i += 2
            else:
                out.append(chr(u))
                i += 1
        units.clear()

    for em in _ESC_RE.finditer(raw):
        if em.start() > last:
            flush_units()
            seg = raw[last:em.start()]
            try:
                out.append(seg.decode('utf-8'))
            except UnicodeDecodeError:
                st.bad_utf8 = True
                out.append(seg.decode('utf-8', 'replace'))
        if em.group(1) is not None:
            flush_units()
            out.append(_SIMPLE_ESC[em.group(1)])
        else:
            units.append(int(em.group(2), 16))
        last = em.end()
    flush_units()
    if last < len(raw):
        seg = raw[last:]
        try:
            out.append(seg.decode('utf-8'))
        except UnicodeDecodeError:
            st.bad_utf8 = True
            out.append(seg.decode('utf-8', 'replace'))
    return ''.join(out), m.end()


def _ptr_tok(s):
    return s.replace('~', '~0').replace('/', '~1')


def _stack_ptr(stack):
    """JSON pointer of the innermost open container (built on demand only)."""
    toks = []
    for f in stack[:-1]:
        toks.append(_ptr_tok(f[3]) if f[0] == 'obj' else str(len(f[1])))
    return ''.join('/' + t for t in toks)


def parse_value(buf, pos):
    """Parse one JSON value starting at buf[pos] (no leading whitespace).
    Returns (value, endpos, DocState). Raises SyntaxErr."""
    st = DocState()
    n = len(buf)
    # stack frames: [kind, container, keyset, pending_key, pointer]
    stack = []

    def scalar_or_open(pos):
        if pos >= n:
            raise SyntaxErr('unexpected end of input')
        c = buf[pos]
        if c == 0x7B:  # {
            return _OPEN_OBJ, pos + 1
        if c == 0x5B:  # [
            return _OPEN_ARR, pos + 1
        if c == 0x22:
            s, p2 = _decode_string(buf, pos, st)
            return s, p2
        if c == 0x2D or 0x30 <= c <= 0x39:
            m = _NUM_RE.match(buf, pos)
            if not m:
                raise SyntaxErr('invalid number at byte %d' % pos)
            lit = m.group(0)
            nxt = buf[m.end():m.end() + 1]
            # an incomplete fraction/exponent belongs to this number (as in
            # Go's scanner): "1." and "1e" are errors, not "1" then "."
            if (nxt == b'.' and b'.' not in lit and b'e' not in lit and b'E' not in lit) or \
                    (nxt in (b'e', b'E') and b'e' not in lit and b'E' not in lit):
                raise SyntaxErr('invalid number at byte %d' % pos)
            return Num(lit.decode('ascii')), m.end()
        if buf.startswith(b'true', pos):
            return True, pos + 4
        if buf.startswith(b'false', pos):
            return False, pos + 5
        if buf.startswith(b'null', pos):
            return None, pos + 4
        raise SyntaxErr('invalid character at byte %d' % pos)

    # main loop
    mode = 'value'
    value = None
    while True:
        if mode == 'value':
            v, pos = scalar_or_open(pos)
            if v is _OPEN_OBJ or v is _OPEN_ARR:
                kind = 'obj' if v is _OPEN_OBJ else 'arr'
                if kind == 'obj':
                    stack.append(['obj', {}, set(), None])
                else:
                    stack.append(['arr', [], None, None])
                if len(stack) > MAX_DEPTH:
                    st.too_deep = True
                pos = skip_ws(buf, pos)
                if kind == 'obj':
                    if pos < n and buf[pos] == 0x7D:
                        pos += 1
                        value = stack.pop()[1]
                        mode = 'done'
                    else:
                        mode = 'key'
                else:
                    if pos < n and buf[pos] == 0x5D:
                        pos += 1
                        value = stack.pop()[1]
                        mode = 'done'
                    else:
                        mode = 'value'
                continue
            value = v
            mode = 'done'
            continue
        if mode == 'key':
            pos = skip_ws(buf, pos)
            if pos >= n or buf[pos] != 0x22:
                raise SyntaxErr('expected object key at byte %d' % pos)
            k, pos = _decode_string(buf, pos, st)
            top = stack[-1]
            if k in top[2]:
                st.dup_keys.append(_stack_ptr(stack) + '/' + _ptr_tok(k))
            top[2].add(k)
            top[3] = k
            pos = skip_ws(buf, pos)
            if pos >= n or buf[pos] != 0x3A:
                raise SyntaxErr("expected ':' at byte %d" % pos)
            pos = skip_ws(buf, pos + 1)
            mode = 'value'
            continue
        # mode == 'done': attach value
        if not stack:
            return value, pos, st
        top = stack[-1]
        if top[0] == 'obj':
            top[1][top[3]] = value
            pos = skip_ws(buf, pos)
            if pos < n and buf[pos] == 0x2C:
                pos += 1
                mode = 'key'
            elif pos < n and buf[pos] == 0x7D:
                pos += 1
                value = stack.pop()[1]
                mode = 'done'
            else:
                raise SyntaxErr("expected ',' or '}' at byte %d" % pos)
        else:
            top[1].append(value)
            pos = skip_ws(buf, pos)
            if pos < n and buf[pos] == 0x2C:
                pos = skip_ws(buf, pos + 1)
                mode = 'value'
            elif pos < n and buf[pos] == 0x5D:
                pos += 1
                value = stack.pop()[1]
                mode = 'done'
            else:
                raise SyntaxErr("expected ',' or ']' at byte %d" % pos)

