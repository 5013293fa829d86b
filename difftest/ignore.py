""".gitignore exclusion as `git check-ignore --no-index` decides it, for the
reference implementation (A5 of docs/spec.md), written from gitignore(5)
and from black-box runs of git; it shares no code with git or with the Go
matcher. Patterns and paths are UTF-8 bytes and matching is byte-wise
(`?` and `[...]` consume one byte).

A pattern is compiled to a list of tokens and matched against a whole text
by dynamic programming over (token, text position), so the cost is
O(tokens x len(text)^2) at worst and never exponential.

Only stdlib. Used by ref.py.
"""

SLASH = ord('/')
_ALL = frozenset(range(256))
_NOT_SLASH = _ALL - {SLASH}


def _rng(lo, hi):
    return frozenset(range(lo, hi + 1))


_UPPER = _rng(0x41, 0x5A)
_LOWER = _rng(0x61, 0x7A)
_DIGIT = _rng(0x30, 0x39)
_ALNUM = _UPPER | _LOWER | _DIGIT

# POSIX classes as git applies them (measured over every byte with
# tests/check_classes_git.py): ASCII only; space is tab, LF, CR and space.
CLASSES = {
    b'alnum': _ALNUM,
    b'alpha': _UPPER | _LOWER,
    b'blank': frozenset(b' \t'),
    b'cntrl': _rng(0x01, 0x1F) | {0x7F},
    b'digit': _DIGIT,
    b'graph': _rng(0x21, 0x7E),
    b'lower': _LOWER,
    b'print': _rng(0x20, 0x7E),
    b'punct': _rng(0x21, 0x7E) - _ALNUM,
    b'space': frozenset(b' \t\n\r'),
    b'upper': _UPPER,
    b'xdigit': _DIGIT | frozenset(b'abcdefABCDEF'),
}

UNTERMINATED = 'unterminated'
UNKNOWN = 'unknown'


def bracket(p, i):
    """Read the bracket expression whose '[' is p[i] (p is bytes).

    Returns (members, end, problem): the set of byte values it names
    (negation applied, '/' not removed), the index after its ']', and None,
    UNKNOWN (a class name git does not know: the pattern never matches) or
    UNTERMINATED. Grammar: optional '!' or '^'; a ']' first is a member;
    '\\' quotes the next byte; a member followed by '-' and a byte other than
    ']' is a range (the end may be quoted) and neither a range end nor a
    class can start another range; '[:' opens a class that ends at the next
    ']' when a ':' other than the opening one stands before it, else '['
    is a member and reading goes on at the ':'.
    """
    n = len(p)
    k = i + 1
    neg = k < n and p[k] in b'!^'
    if neg:
        k += 1
    members = set()
    start = k
    last = None  # a member that may start a range
    unknown = False
    while True:
        if k >= n:
            return members, k, UNTERMINATED
        c = p[k]
        if c == 0x5D and k > start:  # ']'
            if neg:
                members = set(_ALL - members)
            return members, k + 1, UNKNOWN if unknown else None
        if c == 0x5C:  # '\'
            if k + 1 >= n:
                return members, k, UNTERMINATED
            last = p[k + 1]
            members.add(last)
            k += 2
        elif c == 0x2D and last is not None and k + 1 < n and p[k + 1] != 0x5D:  # '-'
            hi, k = p[k + 1], k + 2
            if hi == 0x5C:
                if k >= n:
                    return members, k, UNTERMINATED
                hi, k = p[k], k + 1
            members.update(range(last, hi + 1))
            last = None
        elif c == 0x5B and k + 1 < n and p[k + 1] == 0x3A:  # '[:'
            close = p.find(b']', k + 2)
            if close < 0:
                return members, n, UNTERMINATED
            if close - 1 >= k + 2 and p[close - 1] == 0x3A:
                cls = CLASSES.get(p[k + 2:close - 1])
                if cls is None:
                    unknown = True
                else:
                    members |= cls
                last = None
                k = close + 1
            else:
                members.add(c)
                last = c
                k += 1
        else:
            members.add(c)
            last = c
            k += 1


# token kinds
ONE, RUN, DIRS = 'one', 'run', 'dirs'


def tokens(p):
    """Compile glob bytes p; None when it can never match.

    ONE consumes one byte of its set; RUN any number of bytes of its set;
    DIRS ("**/") is empty or any text ending in '/'. A run of two or more
    '*' with the start or '/' before it and the end, '/' or a quoted '/'
    after it crosses directories; anywhere else it is one '*'.
    """
    out = []
    i, n = 0, len(p)
    while i < n:
        c = p[i]
        if c == 0x5C:
            if i + 1 >= n:
                return None
            out.append((ONE, frozenset([p[i + 1]])))
            i += 2
        elif c == 0x3F:
            out.append((ONE, _NOT_SLASH))
            i += 1
        elif c == 0x5B:
            members, end, problem = bracket(p, i)
            if problem:
                return None
            out.append((ONE, frozenset(members) - {SLASH}))
            i = end
        elif c == 0x2A:
            j = i
            while j < n and p[j] == 0x2A:
                j += 1
            across = j - i >= 2 and (i == 0 or p[i - 1] == SLASH) and (
                j == n or p[j] == SLASH or p[j:j + 2] == b'\\/')
            if across and j < n and p[j] == SLASH:
                out.append((DIRS, None))
                j += 1
            elif across:
                out.append((RUN, _ALL))
            else:
                out.append((RUN, _NOT_SLASH))
            i = j
        else:
            out.append((ONE, frozenset([c])))
            i += 1
    return out


def full_match(toks, t):
    """Whether token list toks matches all of bytes t (bottom-up DP)."""
    n = len(t)
    nxt = [False] * n + [True]  # row for len(toks): only the end matches
    for kind, s in reversed(toks):
        cur = [False] * (n + 1)
        for j in range(n, -1, -1):
            if kind == ONE:
                cur[j] = j < n and t[j] in s and nxt[j + 1]
            elif kind == RUN:
                cur[j] = nxt[j] or (j < n and t[j] in s and cur[j + 1])
            else:  # DIRS: nothing, or up to and including some later '/'
                cur[j] = nxt[j] or any(t[k - 1] == SLASH and nxt[k] for k in range(j + 1, n + 1))
        nxt = cur
    return nxt[0]


def clean(line):
    """The line as git uses it: one trailing CR off, then the spaces at the
    end that no backslash quotes."""
    if line.endswith(b'\r'):
        line = line[:-1]
    end, i = 0, 0
    while i < len(line):
        if line[i] == 0x5C:
            i += 2
            end = min(i, len(line))
            continue
        if line[i] != 0x20:
            end = i + 1
        i += 1
    return line[:end]


def malformed_reason(pat):
    """None when the str pattern is well-formed (A5), else the reason."""
    b = pat.encode('utf-8', 'surrogatepass')
    if b'\x00' in b:
        return 'contains NUL'
    line = clean(b)
    if not line:
        return 'empty or only spaces'
    if line[:1] == b'#':
        return 'starts with unescaped #'
    if (len(line) - len(line.rstrip(b'\\'))) % 2:
        return 'ends with a lone backslash'
    i = 0
    while i < len(line):
        if line[i] == 0x5C:
            i += 2
        elif line[i] == 0x5B:
            _, end, problem = bracket(line, i)
            if problem == UNTERMINATED:
                return 'unterminated ['
            i = end
        else:
            i += 1
    return None


class Pattern:
    """One .gitignore line (bytes), parsed as gitignore(5) says."""

    def __init__(self, line):
        p = clean(line)
        self.negative = p[:1] == b'!'
        if self.negative:
            p = p[1:]
        self.dir_only = p[-1:] == b'/'
        if self.dir_only:
            p = p[:-1]
        self.anchored = b'/' in p
        if p[:1] == b'/':
            p = p[1:]
        # An anchored pattern's leading literal part is compared as text and
        # the glob applies to the rest alone: a "**" right after that part
        # counts as the pattern's start (git: "foo**/bar" matches
        # "foox/y/bar").
        cut = len(p)
        for k, c in enumerate(p):
            if c in b'*?[\\':
                cut = k
                break
        self.prefix = p[:cut]
        self.toks = tokens(p[cut:]) if p else None

    def matches(self, path, is_dir):
        if self.toks is None or (self.dir_only and not is_dir):
            return False
        s = path if self.anchored else path[path.rfind(b'/') + 1:]
        return s.startswith(self.prefix) and full_match(self.toks, s[len(self.prefix):])


class PatternList:
    """An ordered list of lines; the last matching one decides, and a path
    under an excluded directory is excluded whatever follows."""

    def __init__(self, lines):
        self.patterns = [Pattern(x) for x in lines]

    def _decide(self, path, is_dir):
        for pt in reversed(self.patterns):
            if pt.matches(path, is_dir):
                return not pt.negative
        return False

    def excluded(self, path):
        for k, c in enumerate(path):
            if c == SLASH and self._decide(path[:k], True):
                return True
        return self._decide(path, False)
