package gitignore

import (
	"strings"
	"sync"
)

// This file ports git's wildmatch.c (dowild), the matcher git itself uses for
// .gitignore patterns. It is ported rather than translated to regexp because
// git's behaviour has corners a regexp translation gets wrong: "**" is
// special only next to slashes and only relative to the start of the pattern
// text handed in (which git shifts past a literal prefix, and which each
// recursive call shifts again), unknown [:class:] names abort the whole
// match, a '*' followed by a literal gives up at a '/' with a different
// verdict than one followed by a wildcard, and everything is compared byte by
// byte, so '?' matches one byte of a multi-byte UTF-8 character.
//
// git's dowild backtracks and is exponential in the worst case
// ("**/**/**/a*b*c*" against a deep path). Its result, though, depends only
// on where the (sub)pattern starts and where the text starts: a recursive
// call is dowild(pat[p:], text[t:]), and the verdict of a '*' loop entered
// at text position t depends only on the star and t. So each call runs first
// as plain git backtracking with a step budget linear in the input; only a
// call that spends its budget is run again with both functions memoised in
// tables indexed by (pattern position, text position), which bounds it by
// O(len(pat) × len(text)) steps. Verdicts are git's either way: the code path
// is the same, the memo only skips recomputation. The original backtracking
// port is kept as refDowild in wildmatch_ref_test.go, and the tests compare.
//
// C strings end at NUL; here a read past the end of a Go string yields 0 (see
// at), which reproduces the C control flow without copying. Case folding
// (WM_CASEFOLD) is not ported: the oracle runs with core.ignorecase=false.

// Results of dowild, as in wildmatch.h. Only wmMatch means "matched"; the two
// abort values let an enclosing '*' stop backtracking early.
const (
	wmMatch           = 0
	wmNoMatch         = 1
	wmAbortAll        = -1
	wmAbortToStarStar = -2
)

// at returns s[i], or 0 when i is past the end, mimicking a read of a C
// string's terminating NUL.
func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

// isGlobSpecial reports whether c is one of git's GIT_GLOB_SPECIAL bytes.
func isGlobSpecial(c byte) bool {
	return c == '*' || c == '?' || c == '[' || c == '\\'
}

// wmState is one wildmatch call: the pattern and text, git's WM_PATHNAME
// flag, the backtracking budget and, in the memoised run, the memo tables.
type wmState struct {
	pat, text string
	pathname  bool
	// budget counts '*' loop steps left in the plain run; over is set
	// when it runs out, and the plain run's verdict is then discarded.
	budget int
	over   bool
	memo   *wmMemo // nil in the plain run
}

// wmMemo holds the memo tables of one memoised run. Entries are result+3
// (so 0 means "not computed yet"), row-major with rows of len(text)+1, one
// row per pattern position where a (recursive) dowild can start: 0, just
// after a run of '*', and just after "*/". row maps pattern positions to
// rows. calls[row(p)][t] is dowild(pat[p:], text[t:]);
// loops[2row(p)+slash][t] is the verdict of the '*' loop whose rest of
// pattern starts at p, entered at t. Memory is O(stars × len(text)).
type wmMemo struct {
	width int
	end   int // len(text), or the index of its first NUL (C's end)
	row   []int32
	calls []int8
	loops []int8
}

// wmPool recycles memo tables, so that hostile patterns do not allocate per
// call once warm.
var wmPool = sync.Pool{New: func() any { return new(wmMemo) }}

// wmBudgetBase and wmBudgetPerByte size the plain run's budget: ordinary
// patterns finish far inside it, so only hostile ones pay for the memo.
const (
	wmBudgetBase    = 64
	wmBudgetPerByte = 4
)

// wildmatch reports whether text matches pat, as git's wildmatch() with
// flags 0 or WM_PATHNAME (pathname: wildcards other than a properly placed
// "**" do not match '/'). It costs O(len(pat) × len(text)) at worst.
func wildmatch(pat, text string, pathname bool) bool {
	w := wmState{pat: pat, text: text, pathname: pathname,
		budget: wmBudgetBase + wmBudgetPerByte*(len(pat)+len(text))}
	r := w.dowild(0, 0)
	if w.over {
		r = dowildMemo(pat, text, pathname)
	}
	return r == wmMatch
}

// dowildMemo is git's dowild() run with memo tables from the start.
func dowildMemo(pat, text string, pathname bool) int {
	w := wmState{pat: pat, text: text, pathname: pathname, memo: wmPool.Get().(*wmMemo)}
	w.memo.reset(pat, len(text)+1)
	w.memo.end = len(text)
	if i := strings.IndexByte(text, 0); i >= 0 {
		w.memo.end = i
	}
	r := w.dowild(0, 0)
	wmPool.Put(w.memo)
	return r
}

// reset numbers the rows for pat and sizes and clears the tables for width
// text positions.
func (m *wmMemo) reset(pat string, width int) {
	if cap(m.row) < len(pat)+1 {
		m.row = make([]int32, len(pat)+1)
	}
	m.row = m.row[:len(pat)+1]
	rows := int32(0)
	for p := range m.row {
		m.row[p] = -1
		if p == 0 || (pat[p-1] == '*' && at(pat, p) != '*') ||
			(pat[p-1] == '/' && p >= 2 && pat[p-2] == '*') {
			m.row[p] = rows
			rows++
		}
	}
	m.width = width
	m.calls = grow(m.calls, int(rows)*width)
	m.loops = grow(m.loops, 2*int(rows)*width)
}

// grow returns a zeroed slice of length n, reusing b when it is big enough.
func grow(b []int8, n int) []int8 {
	if cap(b) < n {
		return make([]int8, n)
	}
	b = b[:n]
	clear(b)
	return b
}

// dowild is git's dowild() for the pattern starting at start and the text
// starting at t0, memoised in the memoised run.
func (w *wmState) dowild(start, t0 int) int {
	if w.memo == nil {
		return w.run(start, t0)
	}
	k := int(w.memo.row[start])*w.memo.width + t0
	if v := w.memo.calls[k]; v != 0 {
		return int(v) - 3
	}
	r := w.run(start, t0)
	w.memo.calls[k] = int8(r + 3)
	return r
}

// run is the body of git's dowild(); p and t play the role of the C
// pointers into the pattern and the text. "At the start of the pattern"
// means at start, exactly as git's recursion shifts the pattern pointer.
func (w *wmState) run(start, t0 int) int {
	pat, text, pathname := w.pat, w.text, w.pathname
	p, t := start, t0
	for ; at(pat, p) != 0; t, p = t+1, p+1 {
		pch := pat[p]
		tch := at(text, t)
		if tch == 0 && pch != '*' {
			return wmAbortAll
		}
		switch pch {
		case '\\':
			// Literal match with the following byte; a lone trailing
			// backslash reads 0 and so can never match.
			p++
			if tch != at(pat, p) {
				return wmNoMatch
			}
		case '?':
			if pathname && tch == '/' {
				return wmNoMatch
			}
		case '*':
			var matchSlash bool
			p++
			if at(pat, p) == '*' {
				prevP := p - 2
				for p++; at(pat, p) == '*'; p++ {
				}
				c := at(pat, p)
				switch {
				case !pathname:
					matchSlash = true
				case (prevP < start || pat[prevP] == '/') &&
					(c == 0 || c == '/' || (c == '\\' && at(pat, p+1) == '/')):
					// "**/" may match no directory at all: try the
					// rest of the pattern right here first.
					if c == '/' && w.dowild(p+1, t) == wmMatch {
						return wmMatch
					}
					matchSlash = true
				default:
					// Any other "**" behaves like a single '*'.
					matchSlash = false
				}
			} else {
				matchSlash = !pathname
			}
			if at(pat, p) == 0 {
				// Trailing "**" matches everything; a trailing '*'
				// only if no slash remains.
				if !matchSlash && strings.IndexByte(text[t:], '/') >= 0 {
					return wmNoMatch
				}
				return wmMatch
			} else if !matchSlash && pat[p] == '/' {
				// One '*' followed by '/' matches the rest of
				// this path component; the loop consumes the '/'.
				i := strings.IndexByte(text[t:], '/')
				if i < 0 {
					return wmNoMatch
				}
				t += i
				continue
			}
			return w.star(p, t, matchSlash)
		case '[':
			np, matched, ok := matchClass(pat, p, tch, false)
			if !ok {
				return wmAbortAll
			}
			if !matched || (pathname && tch == '/') {
				return wmNoMatch
			}
			p = np
		default:
			if tch != pch {
				return wmNoMatch
			}
		}
	}
	if at(text, t) != 0 {
		return wmNoMatch
	}
	return wmMatch
}
