package gitignore

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// regexpOf translates compiled tokens into an RE2 expression over runes
// 0–255 (one rune per byte), a second, independent way of running the
// same automaton: a one-byte token is a character class, a loop a starred
// class, and a fork ("**/") an optional "(anything)/".
func regexpOf(g *glob) *regexp.Regexp {
	class := func(s *byteSet) string {
		var sb strings.Builder
		sb.WriteString("[")
		for c := 0; c < 256; c++ {
			if !s.has(byte(c)) {
				continue
			}
			hi := c
			for hi+1 < 256 && s.has(byte(hi+1)) {
				hi++
			}
			fmt.Fprintf(&sb, `\x{%x}-\x{%x}`, c, hi)
			c = hi
		}
		sb.WriteString("]")
		if sb.Len() == 2 {
			return `[^\x00-\x{10ffff}]` // the empty set
		}
		return sb.String()
	}
	var sb strings.Builder
	sb.WriteString(`^(?s:`)
	for i := 0; i < len(g.toks); i++ {
		t := &g.toks[i]
		switch {
		case t.fork:
			fmt.Fprintf(&sb, "(?:%s*%s)?", class(&g.toks[i+1].set), class(&g.toks[i+2].set))
			i += 2
		case t.loop:
			sb.WriteString(class(&t.set) + "*")
		default:
			sb.WriteString(class(&t.set))
		}
	}
	sb.WriteString(`)$`)
	return regexp.MustCompile(sb.String())
}

// latin1 maps each byte of s to the rune of the same value.
func latin1(s string) string {
	r := make([]rune, len(s))
	for i := 0; i < len(s); i++ {
		r[i] = rune(s[i])
	}
	return string(r)
}

// FuzzGlob checks glob.match (ends, then the automaton) against the RE2
// translation of the same tokens for arbitrary patterns and texts. (What
// the tokens should be is checked against git by the table and corpus
// tests; this target guards the simulation: closure, forks, the bit sets
// across 64-state words.)
func FuzzGlob(f *testing.F) {
	for _, s := range [][2]string{
		{"**/foo", "foo"}, {"**/**/**/a*b*c*", "aab/aab/abc"}, {"a/**/b", "a/x/y/b"},
		{"***/b", "ab"}, {`**\/b`, "a/b"}, {"[[:alpha:]-]*?", "-x/y"},
		{strings.Repeat("a*", 40) + "/**/b", strings.Repeat("a", 50) + "/x/b"},
		{strings.Repeat("?", 70), strings.Repeat("x", 70)},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pat, text string) {
		if len(pat) > 200 || len(text) > 200 {
			return
		}
		g := compileGlob(pat)
		if g.never {
			if g.match(text) {
				t.Fatalf("never-matching %q matched %q", pat, text)
			}
			return
		}
		want := regexpOf(g).MatchString(latin1(text))
		if got := g.match(text); got != want {
			t.Fatalf("glob %q on %q: automaton %v, regexp %v", pat, text, got, want)
		}
	})
}
