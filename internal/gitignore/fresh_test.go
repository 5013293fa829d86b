package gitignore

import (
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"
)

// freshClass returns a random bracket expression built from the parts the
// class grammar distinguishes: negation, a leading ']', ranges (forward,
// reversed, from or to '-' and ']'), escapes, POSIX names known and not,
// "[:" that is not a class, and stray '-'.
func freshClass(r *rand.Rand) string {
	parts := []string{"a", "b", "-", "a-b", "b-a", "--0", "]-a", `\]`, `\-`, `a\-b`, "[:alpha:]", "[:digit:]",
		"[:punct:]", "[:space:]", "[:nope:]", "[:", "[", ":", "^", "!", "/", "é"}
	var sb strings.Builder
	sb.WriteByte('[')
	switch r.IntN(4) {
	case 0:
		sb.WriteByte('!')
	case 1:
		sb.WriteByte('^')
	}
	if r.IntN(5) == 0 {
		sb.WriteByte(']')
	}
	for j := 0; j < 1+r.IntN(3); j++ {
		sb.WriteString(parts[r.IntN(len(parts))])
	}
	sb.WriteByte(']')
	return sb.String()
}

// freshPattern returns one random pattern: optional '!' and '/', segments
// of literals, wildcards, classes and escapes joined by '/', "**" forms in
// every position, and optional trailing '/' or spaces.
func freshPattern(r *rand.Rand) string {
	atoms := []string{"a", "b", "ab", "*", "*", "?", "**", "***", `\*`, `\?`, `\a`, `\ `, `\/`, `\[`, `\\`, "é", "-", "]", ".", " "}
	var sb strings.Builder
	if r.IntN(4) == 0 {
		sb.WriteByte('!')
	}
	if r.IntN(4) == 0 {
		sb.WriteByte('/')
	}
	for s := 0; s < 1+r.IntN(3); s++ {
		if s > 0 {
			sb.WriteByte('/')
		}
		for j := 0; j < 1+r.IntN(3); j++ {
			if r.IntN(4) == 0 {
				sb.WriteString(freshClass(r))
			} else {
				sb.WriteString(atoms[r.IntN(len(atoms))])
			}
		}
	}
	switch r.IntN(6) {
	case 0:
		sb.WriteByte('/')
	case 1:
		sb.WriteString("  ")
	case 2:
		sb.WriteString("\r")
	}
	return sb.String()
}

// TestFreshCorpusAgainstGit compares Match with `git check-ignore
// --no-index` on a corpus generated afresh for the re-implementation (its
// own generator and seed, independent of TestRandomAgainstGit): lists of up
// to four random patterns, checked against paths of up to five components
// drawn from names the patterns can hit.
func TestFreshCorpusAgainstGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	if testing.Short() {
		t.Skip("slow: runs git for about 3000 paths")
	}
	names := []string{"a", "b", "ab", "ba", "a b", "a ", "-", "]", "[", "*", "?", `\`, "é", ".a", "^", "0", "_", "b-", "aab"}
	r := rand.New(rand.NewPCG(2026, 12))
	var cases []matchCase
	for len(cases) < 3000 {
		var pats []string
		for k := 0; k < 1+r.IntN(4); k++ {
			if s := freshPattern(r); Validate(s) == nil {
				pats = append(pats, s)
			}
		}
		if len(pats) == 0 {
			continue
		}
		for k := 0; k < 8; k++ {
			parts := make([]string, 1+r.IntN(5))
			for j := range parts {
				parts[j] = names[r.IntN(len(names))]
			}
			cases = append(cases, matchCase{patterns: pats, path: strings.Join(parts, "/")})
		}
	}
	verdicts := askGit(t, cases)
	hits := 0
	for i, c := range cases {
		m, err := Compile(c.patterns)
		if err != nil {
			t.Fatalf("Compile(%q): %v", c.patterns, err)
		}
		if verdicts[i] {
			hits++
		}
		if got := m.Match(c.path); got != verdicts[i] {
			t.Errorf("Match(%q) with %q = %v, git says %v", c.path, c.patterns, got, verdicts[i])
		}
	}
	// A corpus where git excludes (almost) nothing or everything would
	// prove little.
	if hits < len(cases)/10 || hits > len(cases)*9/10 {
		t.Errorf("git excluded %d of %d paths: the generator is off balance", hits, len(cases))
	}
}
