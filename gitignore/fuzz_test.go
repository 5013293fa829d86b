package gitignore

import (
	"strings"
	"testing"
)

// FuzzCompile feeds arbitrary pattern lists (newline-separated) and paths to
// Compile and Match. Neither may panic; Compile must fail exactly when some
// pattern fails Validate; and Match must be deterministic.
func FuzzCompile(f *testing.F) {
	seeds := [][2]string{
		{"*.log\n!keep.log", "a/keep.log"},
		{"foo**/bar\n/a/**/b/", "foox/y/bar"},
		{"[[:alpha:]-]\n[]]x\n[!]a]", "]x"},
		{"[[:alpha:]\n", "a"},
		{`a\` + "\n" + `\#x`, "#x"},
		{"**/\n!*/\n*", "a/b/c"},
		{"[\\]\n[a-\\", "a"},
		{"***/**\n*/*/*", "a/b/c/d"},
		{"cafe\u0301\nr\xe9", "caf\u00e9"},
		{"/\n!\n//\n  \\ ", "x"},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, lines, path string) {
		patterns := strings.Split(lines, "\n")
		m, err := Compile(patterns)
		anyBad := false
		for _, p := range patterns {
			if Validate(p) != nil {
				anyBad = true
			}
		}
		if (err != nil) != anyBad {
			t.Fatalf("Compile(%q) error %v, but some Validate failed = %v", patterns, err, anyBad)
		}
		if err != nil {
			return
		}
		if first, again := m.Match(path), m.Match(path); first != again {
			t.Fatalf("Match(%q) not deterministic", path)
		}
	})
}
