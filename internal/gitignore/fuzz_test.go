package gitignore

import (
	"strings"
	"testing"
)

// FuzzCompile feeds arbitrary pattern lists (newline-separated) and paths to
// Compile and Match. Neither may panic; Compile must fail exactly when some
// pattern fails Validate; Match must be deterministic and agree with a
// Session; and appending a copy of the list must not change the verdict (identical
// lines are deduplicated: only the last copy can decide).
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
		{"**/**/**/a*b*c*", "aab/aab/aab/aab/aab/aab/aab/aab/aab/ab"},
		{"*\n**", "/a"},
		{"*", ""},
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
		first := m.Match(path)
		if again := m.Match(path); first != again {
			t.Fatalf("Match(%q) not deterministic", path)
		}
		if s := m.Session(); s.Match(path) != first {
			t.Fatalf("Session.Match(%q) differs from Match", path)
		}
		doubled, err := Compile(append(append([]string{}, patterns...), patterns...))
		if err != nil {
			t.Fatalf("Compile of the doubled list: %v", err)
		}
		if got := doubled.Match(path); got != first {
			t.Fatalf("Match(%q) = %v with %q, %v with it twice", path, first, patterns, got)
		}
	})
}
