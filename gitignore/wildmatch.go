package gitignore

import "strings"

// This file is a line-by-line port of git's wildmatch.c (dowild), the matcher
// git itself uses for .gitignore patterns. It is ported rather than translated
// to regexp because git's behaviour has corners a regexp translation gets
// wrong: "**" is special only next to slashes and only relative to the start
// of the pattern text handed in (which git shifts past a literal prefix),
// unknown [:class:] names abort the whole match, and everything is compared
// byte by byte, so '?' matches one byte of a multi-byte UTF-8 character.
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

// wildmatch reports whether text matches pat. pathname selects WM_PATHNAME
// semantics: wildcards other than a properly placed "**" do not match '/'.
func wildmatch(pat, text string, pathname bool) bool {
	return dowild(pat, text, pathname) == wmMatch
}

// dowild is git's dowild(); see the file comment. Indices p and t play the
// role of the C pointers into the pattern and the text.
func dowild(pat, text string, pathname bool) int {
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
					if c == '/' && dowild(pat[p+1:], text[t:], pathname) == wmMatch {
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
				if m := dowild(pat[p:], text[t:], pathname); m != wmNoMatch {
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

// matchClass evaluates the bracket expression starting at pat[p] == '[' for
// the byte tch. It returns the index of the closing ']', whether tch is in
// the (possibly negated) set, and ok=false when git would abort the whole
// match: the class is unterminated or names an unknown [:class:]. Validate
// passes lenient=true so that an unknown name counts as an empty member and
// the scan goes on to find out whether the class is terminated.
func matchClass(pat string, p int, tch byte, lenient bool) (end int, matched, ok bool) {
	p++
	pch := at(pat, p)
	if pch == '^' {
		pch = '!'
	}
	negated := pch == '!'
	if negated {
		p++
		pch = at(pat, p)
	}
	var prevCh byte
	for {
		if pch == 0 {
			return p, false, false
		}
		switch {
		case pch == '\\':
			p++
			pch = at(pat, p)
			if pch == 0 {
				return p, false, false
			}
			if tch == pch {
				matched = true
			}
		case pch == '-' && prevCh != 0 && at(pat, p+1) != 0 && at(pat, p+1) != ']':
			p++
			pch = pat[p]
			if pch == '\\' {
				p++
				pch = at(pat, p)
				if pch == 0 {
					return p, false, false
				}
			}
			if tch <= pch && tch >= prevCh {
				matched = true
			}
			pch = 0 // a range cannot start another range
		case pch == '[' && at(pat, p+1) == ':':
			p += 2
			s := p
			for at(pat, p) != 0 && pat[p] != ']' {
				p++
			}
			if at(pat, p) == 0 {
				return p, false, false
			}
			if n := p - s - 1; n < 0 || pat[p-1] != ':' {
				// No ":]": the '[' is an ordinary member.
				p = s - 2
				pch = '['
				if tch == pch {
					matched = true
				}
			} else {
				in, known := posixClass(pat[s:s+n], tch)
				if !known && !lenient {
					return p, false, false
				}
				if in {
					matched = true
				}
				pch = 0
			}
		default:
			if tch == pch {
				matched = true
			}
		}
		prevCh = pch
		p++
		pch = at(pat, p)
		if pch == ']' {
			return p, matched != negated, true
		}
	}
}

// posixClass reports whether c belongs to the named POSIX class, using git's
// ASCII-only ctype (so "space" excludes \v and \f, and no byte >= 0x80 is in
// any class), and known=false for a name git does not recognise.
func posixClass(name string, c byte) (in, known bool) {
	isUpper := 'A' <= c && c <= 'Z'
	isLower := 'a' <= c && c <= 'z'
	isDigit := '0' <= c && c <= '9'
	isAlpha := isUpper || isLower
	switch name {
	case "alnum":
		return isAlpha || isDigit, true
	case "alpha":
		return isAlpha, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return isDigit, true
	case "graph":
		return 0x21 <= c && c <= 0x7e, true
	case "lower":
		return isLower, true
	case "print":
		return 0x20 <= c && c <= 0x7e, true
	case "punct":
		return 0x21 <= c && c <= 0x7e && !isAlpha && !isDigit, true
	case "space":
		return c == ' ' || c == '\t' || c == '\n' || c == '\r', true
	case "upper":
		return isUpper, true
	case "xdigit":
		return isDigit || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F'), true
	}
	return false, false
}
