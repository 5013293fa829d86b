package gitignore

import "math/bits"

// The index lets Match skip rules that cannot match. Every rule is filed
// under each byte a matching path can end with; Match looks at the last byte
// of the name being tested and visits only the rules filed there, newest
// first. The bit sets keep rule order, so "last match wins" is unchanged,
// and the lookup is a slice index, so Match still does not allocate.

// byteSet is a set of byte values, one bit per value.
type byteSet [4]uint64

func (s *byteSet) add(c byte)      { s[c>>6] |= 1 << (c & 63) }
func (s *byteSet) has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }

// allBytes is the set that constrains nothing.
func allBytes() byteSet { return byteSet{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)} }

// singleByte is the set holding only c.
func singleByte(c byte) (s byteSet) {
	s.add(c)
	return s
}

// literalEnd is the set of possible last bytes of a name that ends with (or
// equals) lit: its last byte, or anything when lit is empty.
func literalEnd(lit string) byteSet {
	if lit == "" {
		return allBytes()
	}
	return singleByte(lit[len(lit)-1])
}

// endBytes returns the set of bytes a non-empty name matched by the rule can
// end with. It is an over-approximation: allBytes is always correct.
func (r *rule) endBytes() byteSet {
	switch r.kind {
	case basenameLiteral, basenameSuffix:
		return literalEnd(r.lit)
	case pathGlob:
		if r.glob == "" {
			return literalEnd(r.lit)
		}
	}
	return globEnd(r.glob)
}

// globEnd returns the bytes a text matched by the wildmatch pattern pat can
// end with. When pat finishes with a literal byte, an escaped byte or a
// bracket expression, wildmatch only reports a match after that last unit
// has consumed the last byte of the text, so the last byte is in that unit's
// set. Anything else ('*', '?', or a pattern that can never match) gives
// allBytes.
func globEnd(pat string) byteSet {
	last := -1
	for i := 0; i < len(pat); {
		last = i
		switch pat[i] {
		case '\\':
			if i+1 >= len(pat) {
				return allBytes()
			}
			i += 2
		case '[':
			end, _, ok := matchClass(pat, i, 0, true)
			if !ok {
				return allBytes()
			}
			i = end + 1
		default:
			i++
		}
	}
	if last < 0 {
		return allBytes()
	}
	switch pat[last] {
	case '\\':
		return singleByte(pat[last+1])
	case '*', '?', '/':
		return allBytes()
	case '[':
		var s byteSet
		for c := 1; c < 256; c++ {
			_, in, ok := matchClass(pat, last, byte(c), false)
			if !ok {
				return allBytes()
			}
			if in {
				s.add(byte(c))
			}
		}
		return s
	}
	return singleByte(pat[last])
}

// buildIndex fills m.cand: for files (table 0; directory-only rules left
// out) and directories (table 1), and for every last byte, the bit set of
// rules that may match.
func (m *Matcher) buildIndex() {
	m.words = (len(m.rules) + 63) / 64
	m.cand = make([]uint64, 2*256*m.words)
	for i := range m.rules {
		r := &m.rules[i]
		ends := r.endBytes()
		for c := 0; c < 256; c++ {
			if !ends.has(byte(c)) {
				continue
			}
			for table := 0; table < 2; table++ {
				if r.mustBeDir && table == 0 {
					continue
				}
				m.cand[(table*256+c)*m.words+i/64] |= 1 << (i % 64)
			}
		}
	}
}

// candidates returns the bit set of rules that may match a name ending in
// byte c.
func (m *Matcher) candidates(c byte, isDir bool) []uint64 {
	off := int(c) * m.words
	if isDir {
		off += 256 * m.words
	}
	return m.cand[off : off+m.words]
}

// firstMatch visits the candidate rules from newest to oldest and returns
// the first that matches, or nil.
func (m *Matcher) firstMatch(set []uint64, name, base string, slashes int) *rule {
	for w := len(set) - 1; w >= 0; w-- {
		for b := set[w]; b != 0; {
			i := 63 - bits.LeadingZeros64(b)
			b &^= 1 << i
			if r := &m.rules[w*64+i]; r.matches(name, base, slashes) {
				return r
			}
		}
	}
	return nil
}
