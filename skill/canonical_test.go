package skill

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// canonicalBySpec is SPEC A4 read literally: valid UTF-8, no NUL, no
// backslash, not absolute, and every segment non-empty and neither "."
// nor "..".
func canonicalBySpec(p string) bool {
	if !utf8.ValidString(p) || strings.ContainsAny(p, "\x00\\") || strings.HasPrefix(p, "/") {
		return false
	}
	for _, s := range strings.Split(p, "/") {
		if s == "" || s == "." || s == ".." {
			return false
		}
	}
	return true
}

var canonicalCases = []string{
	"", "/", "a", "a/b", "/a", "a/", "a//b", ".", "..", "./a", "a/.", "a/..", "a/../b", "...", "a/.../b",
	".river/memory/x.json", "a\x00b", "a\\b", "日本/語", "a/\xff", "\xe6\x97", "a/\u2028/b", ".a/.b", "a/b.",
}

// TestCanonicalIsSpecA4: Canonical agrees with the rule's literal reading
// on the edge cases.
func TestCanonicalIsSpecA4(t *testing.T) {
	for _, p := range canonicalCases {
		if got, want := Canonical(p), canonicalBySpec(p); got != want {
			t.Errorf("Canonical(%q) = %v, want %v", p, got, want)
		}
	}
}

func FuzzCanonical(f *testing.F) {
	for _, p := range canonicalCases {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if got, want := Canonical(p), canonicalBySpec(p); got != want {
			t.Errorf("Canonical(%q) = %v, want %v", p, got, want)
		}
	})
}
