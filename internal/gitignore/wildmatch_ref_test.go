package gitignore

import "strings"

// This file keeps the original line-by-line port of git's dowild()
// (wildmatch.c), backtracking and exponential in the worst case, as the
// test-only reference the memoised matcher in wildmatch.go is compared with
// (FuzzCompile, TestWildmatchAgreesWithReference).

// refDowild is git's dowild(); see the file comment. Indices p and t play the
// role of the C pointers into the pattern and the text.
func refDowild(pat, text string, pathname bool) int {
	p, t := 0, 0
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
				case (prevP < 0 || pat[prevP] == '/') &&
					(c == 0 || c == '/' || (c == '\\' && at(pat, p+1) == '/')):
					// "**/" may match no directory at all: try the
					// rest of the pattern right here first.
					if c == '/' && refDowild(pat[p+1:], text[t:], pathname) == wmMatch {
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
			for tch != 0 {
				// When a literal follows the '*', skip ahead to
				// its next occurrence (not past a '/' unless the
				// star may match slashes).
				if c := pat[p]; !isGlobSpecial(c) {
					for tch = at(text, t); tch != 0 && (matchSlash || tch != '/'); tch = at(text, t) {
						if tch == c {
							break
						}
						t++
					}
					if tch != c {
						return wmNoMatch
					}
				}
				if m := refDowild(pat[p:], text[t:], pathname); m != wmNoMatch {
					if !matchSlash || m != wmAbortToStarStar {
						return m
					}
				} else if !matchSlash && tch == '/' {
					return wmAbortToStarStar
				}
				t++
				tch = at(text, t)
			}
			return wmAbortAll
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
