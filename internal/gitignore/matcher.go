package gitignore

import (
	"fmt"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// Matcher decides whether repository-relative file paths are excluded by an
// ordered list of .gitignore patterns. It is immutable once built by
// Compile, so any number of goroutines may call Match concurrently. The
// zero value and a nil *Matcher match nothing.
type Matcher struct {
	rules []rule // in file order; the last matching rule decides
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
	base := 0
	for i := 0; i < len(path); i++ {
		if path[i] != '/' {
			continue
		}
		dir := path[:i]
		ex, known := dirs[dir]
		if !known {
			ex = m.excluded(dir, path[base:i], true)
			if dirs != nil {
				if len(dirs) >= maxCachedDirs {
					clear(dirs)
				}
				dirs[dir] = ex
			}
		}
		if ex {
			return true
		}
		base = i + 1
	}
	return m.excluded(path, path[base:], false)
}

// excluded applies the rules, last first, to one candidate: a directory
// (isDir) or the file itself, base being its last component.
func (m *Matcher) excluded(path, base string, isDir bool) bool {
	for i := len(m.rules) - 1; i >= 0; i-- {
		r := &m.rules[i]
		if r.dirOnly && !isDir {
			continue
		}
		if r.matches(path, base) {
			return !r.negate
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
