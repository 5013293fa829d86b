package gitignore

import (
	"fmt"
	"math/bits"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// Matcher decides whether repository-relative file paths are excluded by an
// ordered list of .gitignore patterns. It is immutable once built by
// Compile, so any number of goroutines may call Match concurrently. The
// zero value and a nil *Matcher match nothing.
type Matcher struct {
	rules []rule // in file order; the last matching rule decides
	// index[(d*256+c)*words:][:words] is the set of rules (bit i: rules[i])
	// that can match a candidate ending in byte c, a directory when d is
	// 1 (directory-only rules are left out for files, d = 0).
	index []uint64
	words int
}

// Compile validates and compiles patterns, in order: as in a .gitignore, the
// last pattern that matches a path decides. Each pattern is validated as
// given (see Validate) and then NFC-normalised, because Match expects NFC
// paths and git compares bytes. The error names the index of the first
// malformed pattern and wraps its *PatternError.
func Compile(patterns []string) (*Matcher, error) {
	lines := make([]string, len(patterns))
	for i, p := range patterns {
		if err := Validate(p); err != nil {
			return nil, fmt.Errorf("gitignore: pattern %d: %w", i, err)
		}
		lines[i] = norm.NFC.String(p)
		if err := Validate(lines[i]); err != nil {
			return nil, fmt.Errorf("gitignore: pattern %d after NFC normalisation: %w", i, err)
		}
	}
	m := &Matcher{}
	for _, line := range lastCopies(lines) {
		if r := parseRule(line); !r.never {
			m.rules = append(m.rules, r)
		}
	}
	m.words = (len(m.rules) + 63) / 64
	m.index = make([]uint64, 2*256*m.words)
	for i := range m.rules {
		r := &m.rules[i]
		last := r.lastBytes()
		for c := 0; c < 256; c++ {
			if !last.has(byte(c)) {
				continue
			}
			for d := 0; d < 2; d++ {
				if d == 1 || !r.dirOnly {
					m.index[(d*256+c)*m.words+i>>6] |= 1 << (i & 63)
				}
			}
		}
	}
	return m, nil
}

// lastCopies keeps, in order, only the last copy of each distinct cleaned
// line. An earlier copy matches exactly when the later one does and the
// later one is consulted first, so it can never decide; dropping it keeps a
// document of many identical lines as cheap as one line. A rule that can
// never match is dropped by Compile for the same reason.
func lastCopies(lines []string) []string {
	last := make(map[string]int, len(lines))
	for i, l := range lines {
		last[cleanLine(l)] = i
	}
	out := make([]string, 0, len(last))
	for i, l := range lines {
		if last[cleanLine(l)] == i {
			out = append(out, l)
		}
	}
	return out
}

// Match reports whether the file at path is excluded. path must be
// canonical: relative to the repository root, no leading or trailing '/',
// no empty, "." or ".." segments, NFC-normalised; it names a regular file.
//
// Like git, Match first checks each leading directory, shortest first, as
// a directory (so "dir/" patterns apply to it): if any is excluded the file
// is excluded and no later "!" pattern can bring it back. Otherwise the
// last pattern matching the file itself decides, ignoring directory-only
// ones. Match does not allocate.
func (m *Matcher) Match(path string) bool {
	return m.match(path, nil)
}

// match is Match, with directory verdicts looked up in and added to dirs
// when dirs is not nil.
func (m *Matcher) match(path string, dirs map[string]bool) bool {
	if m == nil || len(m.rules) == 0 {
		return false
	}
	j := strings.LastIndexByte(path, '/')
	if dirs != nil {
		if j >= 0 && m.dirExcluded(path[:j], dirs) {
			return true
		}
		return m.excluded(path, path[j+1:], false)
	}
	base := 0
	for i := 0; i < len(path); i++ {
		if path[i] == '/' {
			if m.excluded(path[:i], path[base:i], true) {
				return true
			}
			base = i + 1
		}
	}
	return m.excluded(path, path[base:], false)
}

// dirExcluded reports whether dir or one of its parents is excluded,
// remembering the answer in dirs: a path whose directory was seen before
// costs one lookup, however deep it is.
func (m *Matcher) dirExcluded(dir string, dirs map[string]bool) bool {
	if ex, ok := dirs[dir]; ok {
		return ex
	}
	j := strings.LastIndexByte(dir, '/')
	ex := j >= 0 && m.dirExcluded(dir[:j], dirs) || m.excluded(dir, dir[j+1:], true)
	if len(dirs) >= maxCachedDirs {
		clear(dirs)
	}
	dirs[dir] = ex
	return ex
}

// excluded applies the rules, last first, to one candidate: a directory
// (isDir) or the file itself, base being its last component.
func (m *Matcher) excluded(path, base string, isDir bool) bool {
	if path == "" {
		return false // only a non-canonical path has an empty candidate
	}
	d := 0
	if isDir {
		d = 1
	}
	set := m.index[(d*256+int(path[len(path)-1]))*m.words:][:m.words]
	for w := len(set) - 1; w >= 0; w-- {
		for x := set[w]; x != 0; {
			b := 63 - bits.LeadingZeros64(x)
			x &^= 1 << b
			if r := &m.rules[w<<6|b]; r.matches(path, base) {
				return !r.negate
			}
		}
	}
	return false
}

// cleanLine is the line as git uses it: one trailing CR dropped, then the
// trailing spaces that no backslash quotes.
func cleanLine(s string) string {
	s = strings.TrimSuffix(s, "\r")
	end := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
		case '\\':
			i++ // the next byte is quoted, even a space
			end = min(i+1, len(s))
		default:
			end = i + 1
		}
	}
	return s[:end]
}
