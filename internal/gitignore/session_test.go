package gitignore

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestSessionAgreesWithMatch: remembering directory verdicts never changes
// a verdict, whatever order the paths come in.
func TestSessionAgreesWithMatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	segs := []string{"a", "b", "keep", "deep", "x.md", "y.json", "z.tmp"}
	patterns := [][]string{
		{"keep/", "*.md", "!deep/x.md"},
		{"a/**/b", "!a/b/", "**/deep/*"},
		{"/a/", "!a/keep/y.json", "*.tmp"},
		{"b", "!b/*.json", "a/*/"},
	}
	for _, pats := range patterns {
		m, err := Compile(pats)
		if err != nil {
			t.Fatal(err)
		}
		s := m.Session()
		for range 2000 {
			parts := make([]string, 1+rng.IntN(5))
			for i := range parts {
				parts[i] = segs[rng.IntN(len(segs))]
			}
			p := strings.Join(parts, "/")
			if got, want := s.Match(p), m.Match(p); got != want {
				t.Fatalf("%q with %q: session %v, matcher %v", p, pats, got, want)
			}
		}
	}
}

// TestNonCanonicalPaths: Match is only defined for canonical paths, but
// other paths must not make it panic, with or without a Session.
func TestNonCanonicalPaths(t *testing.T) {
	m, err := Compile([]string{"*", "!b/", "**"})
	if err != nil {
		t.Fatal(err)
	}
	s := m.Session()
	for _, p := range []string{"", "/", "/a", "a/", "a//b", "//", "./a"} {
		if m.Match(p) != s.Match(p) {
			t.Errorf("%q: Matcher and Session disagree", p)
		}
	}
}
