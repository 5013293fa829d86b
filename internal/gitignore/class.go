package gitignore

// byteSet is a set of bytes, one bit per value.
type byteSet [4]uint64

func (s *byteSet) add(c byte)      { s[c>>6] |= 1 << (c & 63) }
func (s *byteSet) has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }

// addRange adds every byte from lo to hi; nothing when lo > hi.
func (s *byteSet) addRange(lo, hi byte) {
	for c := int(lo); c <= int(hi); c++ {
		s.add(byte(c))
	}
}

// invert replaces s by its complement.
func (s *byteSet) invert() {
	for i := range s {
		s[i] = ^s[i]
	}
}

// classResult says how a bracket expression ended.
type classResult uint8

const (
	classOK           classResult = iota // closed by ']'
	classUnterminated                    // the pattern ended first
	classUnknownName                     // a [:name:] git does not know: the pattern never matches
)

// parseClass reads the bracket expression whose '[' is at pat[open]. It
// returns the bytes the expression stands for (before the caller removes
// '/'), the index just past its closing ']', and how it ended.
//
// The grammar, as gitignore(5) and glob(7) describe it and as
// `git check-ignore` was observed to apply it (docs/decisions/skill.md, 68):
//   - an optional '!' or '^' right after '[' negates the set;
//   - a ']' right after that is a member, not the end;
//   - '\' makes the next byte a plain member;
//   - "x-y" is the range x..y (empty when x > y) when a single member x
//     stands before the '-' and the byte after it is not ']'; y may be
//     escaped; a '-' that does not form a range is a member, and a member
//     that ended a range or a [:name:] cannot start another one;
//   - "[:" starts a character class that ends at the first ']' after it
//     when the byte before that ']' is a ':' other than the opening one;
//     otherwise the '[' is a plain member and parsing goes on at the ':';
//   - a class name git does not know makes the whole pattern unmatchable
//     (the expression must still be closed to be well-formed).
func parseClass(pat string, open int) (set byteSet, end int, res classResult) {
	i := open + 1
	negate := i < len(pat) && (pat[i] == '!' || pat[i] == '^')
	if negate {
		i++
	}
	first, unknown := true, false
	prev := -1 // the member that may start a range, or -1
	for {
		if i >= len(pat) {
			return set, i, classUnterminated
		}
		c := pat[i]
		switch {
		case c == ']' && !first:
			if negate {
				set.invert()
			}
			if unknown {
				return set, i + 1, classUnknownName
			}
			return set, i + 1, classOK
		case c == '\\':
			if i+1 >= len(pat) {
				return set, i, classUnterminated
			}
			set.add(pat[i+1])
			prev = int(pat[i+1])
			i += 2
		case c == '-' && prev >= 0 && i+1 < len(pat) && pat[i+1] != ']':
			hi, next := pat[i+1], i+2
			if hi == '\\' {
				if i+2 >= len(pat) {
					return set, i + 2, classUnterminated
				}
				hi, next = pat[i+2], i+3
			}
			set.addRange(byte(prev), hi)
			prev = -1
			i = next
		case c == '[' && i+1 < len(pat) && pat[i+1] == ':':
			close := -1
			for k := i + 2; k < len(pat); k++ {
				if pat[k] == ']' {
					close = k
					break
				}
			}
			if close < 0 {
				return set, len(pat), classUnterminated
			}
			if close-1 < i+2 || pat[close-1] != ':' {
				set.add('[') // not a character class: '[' is a member
				prev = '['
				i++
				break
			}
			if !addPosix(&set, pat[i+2:close-1]) {
				unknown = true
			}
			prev = -1
			i = close + 1
		default:
			set.add(c)
			prev = int(c)
			i++
		}
		first = false
	}
}

// addPosix adds the bytes of the named POSIX character class to s and
// reports whether the name is one git knows. The classes are ASCII only, as
// measured with `git check-ignore` over every byte: [:space:] is tab, LF,
// CR and space (not VT or FF); no byte from 0x80 up belongs to any class.
func addPosix(s *byteSet, name string) bool {
	switch name {
	case "alnum":
		s.addRange('0', '9')
		s.addRange('A', 'Z')
		s.addRange('a', 'z')
	case "alpha":
		s.addRange('A', 'Z')
		s.addRange('a', 'z')
	case "blank":
		s.add(' ')
		s.add('\t')
	case "cntrl":
		s.addRange(0, 0x1f)
		s.add(0x7f)
	case "digit":
		s.addRange('0', '9')
	case "graph":
		s.addRange(0x21, 0x7e)
	case "lower":
		s.addRange('a', 'z')
	case "print":
		s.addRange(0x20, 0x7e)
	case "punct":
		for c := byte(0x21); c <= 0x7e; c++ {
			if !isAlnum(c) {
				s.add(c)
			}
		}
	case "space":
		for _, c := range []byte{' ', '\t', '\n', '\r'} {
			s.add(c)
		}
	case "upper":
		s.addRange('A', 'Z')
	case "xdigit":
		s.addRange('0', '9')
		s.addRange('A', 'F')
		s.addRange('a', 'f')
	default:
		return false
	}
	return true
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
}
