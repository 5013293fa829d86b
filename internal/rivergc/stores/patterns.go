package stores

import (
	"slices"
	"strconv"
	"strings"

	"github.com/plangate-gc/plangate-gc/internal/gitignore"
)

// Excluded reports whether the --exclude patterns match the store's
// own path (SPEC B6): then every entry of it is excluded.
func Excluded(patterns []string, rel string) bool {
	if len(patterns) == 0 {
		return false
	}
	m, err := gitignore.Compile(patterns) // validated by the caller
	return err == nil && m.Match(rel)
}

// AllEntries is the exclude pattern that matches every entry name of
// the store rel, and nothing else: "/<store>#*" (an entry name is one
// path segment; decision 112). It comes after the user's patterns, so a
// negation of one entry does not take it back from a store excluded whole.
func AllEntries(rel string) string { return "/" + rel + "#*" }

// Patterns is the exclude list an entry scope judges its store's
// entries with (decision 240): the user's patterns in order, each
// followed by its twins when it names entries of the store rel by their
// raw id rather than by the printed name. An entry's printed name escapes
// its id (EscapeID: "a/b" is "a%2Fb"), so a pattern copied from
// the output matches as typed; a user who types the id as it is in the
// index ("<store>#a/b", "<store>#日本", "<store>#a b") gets the same
// entries through the twins, which escape the id part the way names are
// escaped (one keeping its wildcards, one taking every byte literally). A position name ("#[3]") is matched
// literally by its twin ("#\[3\]"), since "[3]" alone is a class.
// Twins only ever add exclusions next to their original, so order and
// negation keep their meaning; where a pattern reads both ways (a typed
// "a%2Fb" names the id "a/b" printed and the id "a%2Fb" raw) both
// entries are kept.
func Patterns(patterns []string, rel string) []string {
	var out []string
	for i, p := range patterns {
		twins := Twins(p, rel)
		if len(twins) == 0 {
			if out != nil {
				out = append(out, p)
			}
			continue
		}
		if out == nil {
			out = append(make([]string, 0, len(patterns)+2), patterns[:i]...)
		}
		out = append(append(out, p), twins...)
	}
	if out == nil {
		return patterns
	}
	return out
}

// Twins are the twins of pattern p for the entries of store rel:
// p with the part after the first '#' whose prefix matches the store
// escaped as an id is, once as a glob (its wildcards kept) and once
// literally (every byte an id byte: "a?b" and "a[b]" name the ids as
// typed). None when p names no entry of rel that way; never p itself.
func Twins(p, rel string) []string {
	neg := ""
	body := p
	if strings.HasPrefix(body, "!") {
		neg, body = "!", body[1:]
	}
	for i := 0; i < len(body); i++ {
		if body[i] != '#' || i == 0 || body[i-1] == '\\' {
			continue
		}
		prefix := body[:i]
		m, err := gitignore.Compile([]string{prefix})
		if err != nil || !m.Match(rel) {
			continue
		}
		var twins []string
		for _, id := range []string{escapeIDGlob(body[i+1:]), EscapeID(body[i+1:])} {
			twin := neg + prefix + "#" + id
			if twin != p && !slices.Contains(twins, twin) && gitignore.Validate(twin) == nil {
				twins = append(twins, twin)
			}
		}
		return twins
	}
	return nil
}

// escapeIDGlob escapes the id part of a pattern as EscapeID
// escapes an id, keeping the glob: '*' and '?' stay wildcards, a
// bracket class stays a class (a position name "[N]" becomes the literal
// "\[N\]"), a backslash-escaped byte is that byte escaped as an id byte.
func escapeIDGlob(s string) string {
	if isPosition(s) {
		return `\` + s[:len(s)-1] + `\]`
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '*' || c == '?':
			b.WriteByte(c)
		case c == '[':
			if end := classEnd(s, i); end > 0 {
				b.WriteString(s[i : end+1])
				i = end
			} else {
				b.WriteString(EscapeID("["))
			}
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteString(escapeIDByte(s[i]))
		default:
			b.WriteString(escapeIDByte(c))
		}
	}
	return b.String()
}

// escapeIDByte is one id byte as a name writes it.
func escapeIDByte(c byte) string {
	e := EscapeID(string([]byte{c}))
	if e == "%2E" { // EscapeID writes an id that is "." whole; one '.' inside an id stays
		return "."
	}
	return e
}

// isPosition reports whether s is a position name's part: "[N]".
func isPosition(s string) bool {
	if len(s) < 3 || s[0] != '[' || s[len(s)-1] != ']' {
		return false
	}
	_, err := strconv.ParseUint(s[1:len(s)-1], 10, 64)
	return err == nil
}

// classEnd is the index of the ']' closing the bracket class opened at
// s[open], or -1: as glob(7) reads it, a '!' or '^' may come first and a
// ']' right after them is a member, "[:name:]" is one member.
func classEnd(s string, open int) int {
	i := open + 1
	if i < len(s) && (s[i] == '!' || s[i] == '^') {
		i++
	}
	if i < len(s) && s[i] == ']' {
		i++
	}
	for ; i < len(s); i++ {
		switch {
		case s[i] == '\\':
			i++
		case s[i] == '[' && i+1 < len(s) && s[i+1] == ':':
			if n := strings.Index(s[i+2:], ":]"); n >= 0 {
				i += n + 3 // "[:name:]" is one member
			}
		case s[i] == ']':
			return i
		}
	}
	return -1
}
