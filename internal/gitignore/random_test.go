package gitignore

import (
	"math/rand"
	"os/exec"
	"strings"
	"testing"
)

// TestRandomAgainstGit compares Match with git on pseudo-random pattern lists
// built from the constructs most likely to expose matching slips (classes,
// escapes, "**" next to and away from slashes, negation, trailing spaces) and
// on paths whose names collide with those constructs. The seed is fixed so
// failures reproduce. The generator dates from the earlier, ported matcher
// (~80k cases agreed then); the re-implementation was also run on 20,000
// cases of it with another seed, by hand, with no disagreement.
func TestRandomAgainstGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	if testing.Short() {
		t.Skip("slow: runs git for about 1500 paths")
	}
	atoms := []string{`\ `, "  ", `[\]]`, "[]a]", `\*`, "[!]]", "[a-]", "***", "/**/", "**/", "/**",
		"[[:digit:][:alpha:]]", "[[:nope:]]", "a", "b", "/", "/", "*", "*", "**", "?", "[", "]", "!",
		`\`, "-", "[[:alpha:]]", "[!a]", "[a-b]", "^", " ", ":", "ab", "é", `\a`, "[ab]", "[^b]"}
	names := []string{"a", "b", "ab", "ba", "aa", "-", "]", "[", `\`, "x y", "é", "a!", "*", "?", "b-", "a]"}
	r := rand.New(rand.NewSource(20240601))
	var cases []matchCase
	for len(cases) < 1500 {
		var pats []string
		for k := 0; k < 1+r.Intn(4); k++ {
			var sb strings.Builder
			for j := 0; j < 1+r.Intn(6); j++ {
				sb.WriteString(atoms[r.Intn(len(atoms))])
			}
			if s := sb.String(); Validate(s) == nil {
				pats = append(pats, s)
			}
		}
		if len(pats) == 0 {
			continue
		}
		for k := 0; k < 10; k++ {
			var parts []string
			for j := 0; j < 1+r.Intn(4); j++ {
				parts = append(parts, names[r.Intn(len(names))])
			}
			cases = append(cases, matchCase{patterns: pats, path: strings.Join(parts, "/")})
		}
	}
	verdicts := askGit(t, cases)
	for i, c := range cases {
		m, err := Compile(c.patterns)
		if err != nil {
			t.Fatalf("Compile(%q): %v", c.patterns, err)
		}
		if got := m.Match(c.path); got != verdicts[i] {
			t.Errorf("Match(%q) with %q = %v, git says %v", c.path, c.patterns, got, verdicts[i])
		}
	}
}
