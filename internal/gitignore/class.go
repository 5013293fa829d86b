package gitignore

// Bracket expressions of wildmatch.c, shared by the matcher, the index and
// Validate.

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
