package gitignore

import "strings"

// rule is one compiled .gitignore line.
type rule struct {
	negate   bool // "!": a match re-includes
	dirOnly  bool // trailing '/': only directories match
	anchored bool // a '/' before the end: matched against the whole path
	never    bool // nothing can match (an empty pattern, an unknown class)
	// literal: the pattern has no wildcard or escape, and a candidate
	// matches exactly when it equals text.
	literal bool
	// suffix: the pattern is '*' followed by text with no wildcard,
	// escape or '/' (only for unanchored rules).
	suffix bool
	// text is the literal, the suffix, or (for an anchored glob) the
	// literal prefix the candidate must start with before g applies.
	text string
	g    *glob
}

// glob characters: a pattern without any of these is a plain string.
const special = "*?[\\"

// parseRule turns one validated line into a rule, following gitignore(5):
// one trailing CR and the unescaped trailing spaces are dropped; a leading
// '!' negates; a trailing '/' restricts the rule to directories and is
// removed; a '/' left anywhere else anchors the pattern to the root (and a
// leading one is removed); otherwise the pattern is matched against the
// last path component at any depth.
func parseRule(line string) rule {
	pat := cleanLine(line)
	var r rule
	if strings.HasPrefix(pat, "!") {
		r.negate, pat = true, pat[1:]
	}
	if strings.HasSuffix(pat, "/") {
		r.dirOnly, pat = true, pat[:len(pat)-1]
	}
	if strings.Contains(pat, "/") {
		r.anchored = true
		pat = strings.TrimPrefix(pat, "/")
	}
	if pat == "" {
		r.never = true
		return r
	}
	// The literal prefix is compared as a string and the glob applies to
	// the rest on its own, as git does for anchored patterns: a "**"
	// right after the prefix counts as being at the pattern's start
	// ("foo**/bar" matches "foox/y/bar"; docs/decisions/skill.md, 68). For an
	// unanchored pattern the split changes nothing (the candidate has no
	// '/'), so the same form serves both.
	n := strings.IndexAny(pat, special)
	switch {
	case n < 0:
		r.literal, r.text = true, pat
	case !r.anchored && pat[0] == '*' && len(pat) > 1 && pat[1] != '*' && !strings.ContainsAny(pat[1:], special):
		r.suffix, r.text = true, pat[1:]
	default:
		r.text, r.g = pat[:n], compileGlob(pat[n:])
		r.never = r.g.never
	}
	return r
}

// lastBytes returns every byte a candidate that r matches can end with.
func (r *rule) lastBytes() (set byteSet) {
	switch {
	case r.literal || r.suffix:
		set.add(r.text[len(r.text)-1])
	case r.g.tail > 0 || len(r.g.mid) == 0 && r.g.head > 0:
		set = r.g.toks[len(r.g.toks)-1].set
	default:
		set = anyByte
	}
	return set
}

// matches reports whether r's pattern matches the candidate path (a
// directory or the file itself), whose last component is base.
func (r *rule) matches(path, base string) bool {
	s := base
	if r.anchored {
		s = path
	}
	switch {
	case r.literal:
		return s == r.text
	case r.suffix:
		return strings.HasSuffix(s, r.text)
	default:
		return strings.HasPrefix(s, r.text) && r.g.match(s[len(r.text):])
	}
}
