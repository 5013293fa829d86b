"""Independent re-implementation of git's wildmatch() and .gitignore pattern
semantics (as `git check-ignore --no-index` decides), operating on UTF-8
bytes exactly like git does (`?` and `[...]` consume one byte).

Only stdlib. Used by ref.py (A5 of docs/spec.md).
"""

WM_MATCH = 0
WM_NOMATCH = 1
WM_ABORT_ALL = -1
WM_ABORT_TO_STARSTAR = -2

_GLOB_SPECIAL = frozenset(b'*?[\\')
SLASH = 0x2F
STAR = 0x2A
BSLASH = 0x5C
LBRACK = 0x5B
RBRACK = 0x5D
COLON = 0x3A


def _set(pred):
    return frozenset(c for c in range(1, 128) if pred(c))


# git's sane_ctype (ASCII only). isspace = \t \n \r and space (not \v \f).
_SPACE = frozenset(b' \t\n\r')
_DIGIT = frozenset(b'0123456789')
_ALPHA = frozenset(b'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ')
_UPPER = frozenset(b'ABCDEFGHIJKLMNOPQRSTUVWXYZ')
_LOWER = frozenset(b'abcdefghijklmnopqrstuvwxyz')
_CNTRL = _set(lambda c: c < 0x20 or c == 0x7F)
_PRINT = _set(lambda c: 0x20 <= c <= 0x7E)
_PUNCT = _set(lambda c: 0x21 <= c <= 0x7E and c not in _DIGIT and c not in _ALPHA)
_XDIGIT = frozenset(b'0123456789abcdefABCDEF')
_BLANK = frozenset(b' \t')
_GRAPH = _set(lambda c: 0x21 <= c <= 0x7E)

CLASSES = {
    b'alnum': _ALPHA | _DIGIT,
    b'alpha': _ALPHA,
    b'blank': _BLANK,
    b'cntrl': _CNTRL,
    b'digit': _DIGIT,
    b'graph': _GRAPH,
    b'lower': _LOWER,
    b'print': _PRINT,
    b'punct': _PUNCT,
    b'space': _SPACE,
    b'upper': _UPPER,
    b'xdigit': _XDIGIT,
}


def _b(s, i):
    return s[i] if i < len(s) else 0


def dowild(p, pi, t, ti, pathname):
    plen = len(p)
    tlen = len(t)
    while pi < plen:
        p_ch = p[pi]
        t_ch = t[ti] if ti < tlen else 0
        if t_ch == 0 and p_ch != STAR:
            return WM_ABORT_ALL
        if p_ch == BSLASH:
            pi += 1
            p_ch = _b(p, pi)
            if t_ch != p_ch:
                return WM_NOMATCH
        elif p_ch == 0x3F:  # '?'
            if pathname and t_ch == SLASH:
                return WM_NOMATCH
        elif p_ch == STAR:
            pi += 1
            if _b(p, pi) == STAR:
                prev_pi = pi - 2
                while True:
                    pi += 1
                    if _b(p, pi) != STAR:
                        break
                cur = _b(p, pi)
                if not pathname:
                    match_slash = True
                elif (prev_pi < 0 or p[prev_pi] == SLASH) and (
                        cur == 0 or cur == SLASH or
                        (cur == BSLASH and _b(p, pi + 1) == SLASH)):
                    if cur == SLASH and dowild(p, pi + 1, t, ti, pathname) == WM_MATCH:
                        return WM_MATCH
                    match_slash = True
                else:
                    match_slash = False
            else:
                match_slash = not pathname
            cur = _b(p, pi)
            if cur == 0:
                if not match_slash:
                    if t.find(b'/', ti) >= 0:
                        return WM_NOMATCH
                return WM_MATCH
            elif not match_slash and cur == SLASH:
                j = t.find(b'/', ti)
                if j < 0:
                    return WM_NOMATCH
                ti = j
                # the slash is consumed by the top-level loop
                pi += 1
                ti += 1
                continue
            while True:
                if t_ch == 0:
                    break
                if cur not in _GLOB_SPECIAL:
                    while True:
                        t_ch = t[ti] if ti < tlen else 0
                        if t_ch == 0 or not (match_slash or t_ch != SLASH):
                            break
                        if t_ch == cur:
                            break
                        ti += 1
                    if t_ch != cur:
                        return WM_ABORT_ALL if match_slash else WM_ABORT_TO_STARSTAR
                matched = dowild(p, pi, t, ti, pathname)
                if matched != WM_NOMATCH:
                    if not match_slash or matched != WM_ABORT_TO_STARSTAR:
                        return matched
                elif not match_slash and t_ch == SLASH:
                    return WM_ABORT_TO_STARSTAR
                ti += 1
                t_ch = t[ti] if ti < tlen else 0
            return WM_ABORT_ALL
        elif p_ch == LBRACK:
            pi += 1
            p_ch = _b(p, pi)
            if p_ch == 0x21:  # '!'
                p_ch = 0x5E
            negated = p_ch == 0x5E
            if negated:
                pi += 1
                p_ch = _b(p, pi)
            prev_ch = 0
            matched = False
            while True:
                if p_ch == 0:
                    return WM_ABORT_ALL
                if p_ch == BSLASH:
                    pi += 1
                    p_ch = _b(p, pi)
                    if p_ch == 0:
                        return WM_ABORT_ALL
                    if t_ch == p_ch:
                        matched = True
                elif p_ch == 0x2D and prev_ch and _b(p, pi + 1) and _b(p, pi + 1) != RBRACK:
                    pi += 1
                    p_ch = _b(p, pi)
                    if p_ch == BSLASH:
                        pi += 1
                        p_ch = _b(p, pi)
                        if p_ch == 0:
                            return WM_ABORT_ALL
                    if prev_ch <= t_ch <= p_ch:
                        matched = True
                    p_ch = 0
                elif p_ch == LBRACK and _b(p, pi + 1) == COLON:
                    pi += 2
                    s = pi
                    while True:
                        p_ch = _b(p, pi)
                        if p_ch == 0 or p_ch == RBRACK:
                            break
                        pi += 1
                    if p_ch == 0:
                        return WM_ABORT_ALL
                    i = pi - s - 1
                    if i < 0 or p[pi - 1] != COLON:
                        pi = s - 2
                        p_ch = LBRACK
                        if t_ch == p_ch:
                            matched = True
                    else:
                        name = bytes(p[s:s + i])
                        cls = CLASSES.get(name)
                        if cls is None:
                            return WM_ABORT_ALL
                        if t_ch in cls:
                            matched = True
                        p_ch = 0
                elif t_ch == p_ch:
                    matched = True
                prev_ch = p_ch
                pi += 1
                p_ch = _b(p, pi)
                if p_ch == RBRACK:
                    break
            if matched == negated or (pathname and t_ch == SLASH):
                return WM_NOMATCH
        else:
            if t_ch != p_ch:
                return WM_NOMATCH
        pi += 1
        ti += 1
    return WM_NOMATCH if ti < tlen else WM_MATCH


def wildmatch(pattern, text, pathname):
    return dowild(pattern, 0, text, 0, pathname) == WM_MATCH


# ---------------------------------------------------------------------------
# well-formedness (SPEC A5)

def malformed_reason(pat):
    """Return None when pattern `pat` (str) is well-formed, else a reason."""
    if pat.strip(' ') == '':
        return 'empty or only spaces'
    if pat.startswith('#'):
        return 'starts with unescaped #'
    if '\x00' in pat:
        return 'contains NUL'
    n = len(pat) - len(pat.rstrip('\\'))
    if n % 2 == 1:
        return 'ends with a lone backslash'
    # bracket scan (mirrors wildmatch's class parser, without a text char)
    i = 0
    L = len(pat)

    def at(k):
        return pat[k] if k < L else ''
    while i < L:
        c = pat[i]
        if c == '\\':
            i += 2
            continue
        if c != '[':
            i += 1
            continue
        # class
        i += 1
        ch = at(i)
        if ch == '!' or ch == '^':
            i += 1
            ch = at(i)
        prev = ''
        while True:
            if ch == '':
                return 'unterminated ['
            if ch == '\\':
                i += 1
                ch = at(i)
                if ch == '':
                    return 'unterminated ['
            elif ch == '-' and prev and at(i + 1) and at(i + 1) != ']':
                i += 1
                ch = at(i)
                if ch == '\\':
                    i += 1
                    ch = at(i)
                    if ch == '':
                        return 'unterminated ['
                ch = ''
            elif ch == '[' and at(i + 1) == ':':
                i += 2
                s = i
                while at(i) != '' and at(i) != ']':
                    i += 1
                if at(i) == '':
                    return 'unterminated ['
                k = i - s - 1
                if k < 0 or pat[i - 1] != ':':
                    i = s - 2
                    ch = '['
                else:
                    ch = ''
            prev = ch
            i += 1
            ch = at(i)
            if ch == ']':
                break
        i += 1
    return None


# ---------------------------------------------------------------------------
# .gitignore pattern list

def _trim_trailing_spaces(s):
    last_space = None
    i = 0
    n = len(s)
    while i < n:
        c = s[i]
        if c == ' ':
            if last_space is None:
                last_space = i
        elif c == '\\':
            i += 1
            if i >= n:
                return s
            last_space = None
        else:
            last_space = None
        i += 1
    if last_space is not None:
        return s[:last_space]
    return s


def _simple_length(p):
    for i, c in enumerate(p):
        if c in _GLOB_SPECIAL:
            return i
    return len(p)


class Pattern:
    __slots__ = ('negative', 'mustbedir', 'nodir', 'body', 'source', 'prefix')

    def __init__(self, source_bytes):
        self.source = source_bytes
        p = _trim_trailing_spaces(source_bytes.decode('utf-8', 'surrogatepass')).encode('utf-8', 'surrogatepass')
        self.negative = False
        if p[:1] == b'!':
            self.negative = True
            p = p[1:]
        self.mustbedir = False
        if p.endswith(b'/'):
            self.mustbedir = True
            p = p[:-1]
        self.nodir = b'/' not in p
        # git's match_pathname() compares the literal prefix (up to the
        # first of * ? [ \\) separately and hands only the rest to
        # wildmatch; this changes how a '**' right after the prefix is
        # read (it then counts as a leading '**').
        self.prefix = _simple_length(p)
        if not self.nodir and p.startswith(b'/'):
            p = p[1:]
            self.prefix -= 1
        self.body = p

    def matches(self, path, basename, isdir):
        if self.mustbedir and not isdir:
            return False
        if self.nodir:
            if self.body == b'':
                return False
            return wildmatch(self.body, basename, False)
        k = self.prefix
        if k:
            if k > len(path) or path[:k] != self.body[:k]:
                return False
            if k == len(self.body) and k == len(path):
                return True
            return wildmatch(self.body[k:], path[k:], True)
        return wildmatch(self.body, path, True)


class PatternList:
    def __init__(self, patterns_bytes):
        self.patterns = [Pattern(p) for p in patterns_bytes]

    def _last(self, path, isdir):
        base = path.rsplit(b'/', 1)[-1]
        for pat in reversed(self.patterns):
            if pat.matches(path, base, isdir):
                return pat
        return None

    def excluded(self, path):
        """path: bytes, repo-relative, a file. git check-ignore semantics."""
        if not self.patterns:
            return False
        parts = path.split(b'/')
        for k in range(1, len(parts)):
            d = b'/'.join(parts[:k])
            m = self._last(d, True)
            if m is not None and not m.negative:
                return True
        m = self._last(path, False)
        return m is not None and not m.negative
