package gitignore

import (
	"fmt"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// Matcher decides whether repository-relative file paths are excluded by an
// ordered list of .gitignore patterns. It is immutable once built by Compile,
// so any number of goroutines may call Match concurrently. The zero value
// and a nil *Matcher match nothing.
type Matcher struct {
	rules []rule
	// words and cand are the last-byte index built by buildIndex.
	words int
	cand  []uint64
}

// ruleKind says which of git's matching strategies a rule uses, decided once
// at compile time so Match does not re-inspect the pattern.
type ruleKind uint8

const (
	// basenameLiteral: no slash and no wildcard; the basename must equal lit.
	basenameLiteral ruleKind = iota
	// basenameSuffix: "*literal" without a slash (git's ENDSWITH); the
	// basename must end with lit.
	basenameSuffix
	// basenameGlob: no slash; wildmatch against the basename.
	basenameGlob
	// pathGlob: contains a slash; the path must start with the literal
	// prefix lit and the rest must wildmatch glob (WM_PATHNAME).
	pathGlob
)

// rule is one compiled pattern, mirroring git's struct path_pattern.
type rule struct {
	kind      ruleKind
	negative  bool   // "!pattern": a match re-includes
	mustBeDir bool   // "pattern/": matches directories only
	lit       string // literal text; meaning depends on kind
	glob      string // wildmatch text after lit (basenameGlob: whole pattern)
	// tail is a literal every match must end with (the text after the
	// last wildcard and the last '/'), used only to reject early; empty
	// when unknown, which is always safe.
	tail string
	// slashes is the exact number of '/' a path must contain to match a
	// pathGlob rule, or -1 when that is not fixed (the pattern has "**" or
	// a bracket expression). It lets Match skip hopeless wildmatch calls.
	slashes int
}

// Compile validates and compiles patterns, in order: as in a .gitignore, the
// last pattern that matches a path decides. Each pattern is validated as
// given (see Validate) and then NFC-normalised, because Match expects NFC
// paths and git compares bytes. The error names the index of the first
// malformed pattern and wraps its *PatternError.
func Compile(patterns []string) (*Matcher, error) {
	lines := make([]string, 0, len(patterns))
	for i, raw := range patterns {
		if err := Validate(raw); err != nil {
			return nil, fmt.Errorf("gitignore: pattern %d: %w", i, err)
		}
		nfc := norm.NFC.String(raw)
		// NFC never adds or removes the ASCII bytes validation looks
		// at, so this cannot fail; checking keeps the invariant honest.
		if err := Validate(nfc); err != nil {
			return nil, fmt.Errorf("gitignore: pattern %d after NFC normalisation: %w", i, err)
		}
		lines = append(lines, cleanLine(nfc))
	}
	lines = lastOccurrences(lines)
	m := &Matcher{rules: make([]rule, len(lines))}
	for i, line := range lines {
		m.rules[i] = compileRule(line)
	}
	m.buildIndex()
	return m, nil
}

// lastOccurrences drops every line that occurs again later, keeping order.
// Since the last matching pattern decides and identical lines match the
// same paths, an earlier copy can never decide: whenever it matches, the
// later copy matches too and is seen first. So a list of 100k copies costs
// one rule per path, not 100k.
func lastOccurrences(lines []string) []string {
	seen := make(map[string]bool, len(lines))
	keep := make([]bool, len(lines))
	n := 0
	for i := len(lines) - 1; i >= 0; i-- {
		if !seen[lines[i]] {
			seen[lines[i]] = true
			keep[i] = true
			n++
		}
	}
	out := make([]string, 0, n)
	for i, line := range lines {
		if keep[i] {
			out = append(out, line)
		}
	}
	return out
}

// compileRule ports git's parse_path_pattern and the dispatch in
// match_basename / match_pathname for a root-level .gitignore line that has
// already been cleaned by cleanLine.
func compileRule(line string) rule {
	var r rule
	p := line
	if strings.HasPrefix(p, "!") {
		r.negative = true
		p = p[1:]
	}
	if strings.HasSuffix(p, "/") {
		r.mustBeDir = true
		p = p[:len(p)-1]
	}
	// git measures the literal prefix on the text before the trailing '/'
	// is dropped and then caps it, which comes to the same thing.
	prefix := simpleLength(p)
	if !strings.Contains(p, "/") {
		switch {
		case prefix == len(p):
			r.kind, r.lit = basenameLiteral, p
		case p[0] == '*' && simpleLength(p[1:]) == len(p)-1:
			r.kind, r.lit = basenameSuffix, p[1:]
		default:
			// git matches the whole pattern here (no prefix split);
			// lit is only a quick-reject prefix.
			r.kind, r.glob, r.lit, r.tail = basenameGlob, p, p[:prefix], literalTail(p)
		}
		return r
	}
	// match_pathname: one leading '/' only anchors (every pattern with a
	// slash is anchored anyway), then the literal prefix is compared
	// directly and only the rest goes to wildmatch. That split matters:
	// "**" at the start of the rest counts as leading, so "foo**/bar"
	// matches "foox/y/bar" in git, and we must agree.
	if p[0] == '/' {
		p = p[1:]
		prefix--
	}
	r.kind, r.lit, r.glob = pathGlob, p[:prefix], p[prefix:]
	r.tail = literalTail(r.glob)
	r.slashes = -1
	if !strings.Contains(p, "**") && !strings.Contains(p, "[") {
		r.slashes = strings.Count(p, "/")
	}
	return r
}

// literalTail returns the literal text every match of the wildmatch pattern
// pat must end with: what follows its last '*', '?' and '/'. A '/' ends the
// tail because "**/" may match nothing. Patterns with brackets or escapes
// get "" (no constraint) rather than a parser of their own.
func literalTail(pat string) string {
	if strings.ContainsAny(pat, `[\`) {
		return ""
	}
	return pat[strings.LastIndexAny(pat, "*?/")+1:]
}

// simpleLength ports git's simple_length: the length of the leading part of
// s that contains none of the glob-special bytes * ? [ \.
func simpleLength(s string) int {
	for i := 0; i < len(s); i++ {
		if isGlobSpecial(s[i]) {
			return i
		}
	}
	return len(s)
}

// Match reports whether the file at path is excluded. path must be
// canonical: relative to the repository root, no leading or trailing '/', no
// empty, "." or ".." segments, NFC-normalised; it names a regular file.
//
// Like git, Match first checks each leading directory, shortest first, as a
// directory (so "dir/" patterns apply to it): if any is excluded the file is
// excluded and no later "!" pattern can bring it back. Otherwise the last
// pattern matching the file itself decides, ignoring directory-only ones.
// Match does not allocate.
func (m *Matcher) Match(path string) bool {
	return m.match(path, nil)
}

// excluded ports last_matching_pattern_from_list for one path: the last
// rule (in pattern order) that matches decides, and a negative rule means
// "not excluded". name is the whole path, base its last component, slashes
// the number of '/' in name. Only rules the index allows are visited, except
// for the empty base of a non-canonical path, where every rule is tried.
func (m *Matcher) excluded(name, base string, slashes int, isDir bool) bool {
	if base != "" {
		r := m.firstMatch(m.candidates(base[len(base)-1], isDir), name, base, slashes)
		return r != nil && !r.negative
	}
	for i := len(m.rules) - 1; i >= 0; i-- {
		r := &m.rules[i]
		if r.mustBeDir && !isDir {
			continue
		}
		if r.matches(name, base, slashes) {
			return !r.negative
		}
	}
	return false
}

// matches reports whether the rule matches a path whose last component is
// base and which contains the given number of slashes, following git's
// match_basename and match_pathname.
func (r *rule) matches(name, base string, slashes int) bool {
	switch r.kind {
	case basenameLiteral:
		return base == r.lit
	case basenameSuffix:
		return strings.HasSuffix(base, r.lit)
	case basenameGlob:
		// git calls wildmatch without WM_PATHNAME here; a basename has
		// no '/', so the flag would not change anything anyway.
		return strings.HasPrefix(base, r.lit) && strings.HasSuffix(base, r.tail) &&
			wildmatch(r.glob, base, false)
	}
	if name == "" || (r.slashes >= 0 && r.slashes != slashes) {
		return false
	}
	if !strings.HasPrefix(name, r.lit) {
		return false
	}
	rest := name[len(r.lit):]
	if r.glob == "" {
		return rest == ""
	}
	return strings.HasSuffix(rest, r.tail) && wildmatch(r.glob, rest, true)
}
