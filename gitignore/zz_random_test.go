package gitignore

import (
	"math/rand"
	"os"
	"strings"
	"testing"
)

func TestZZRandomDiff(t *testing.T) {
	if os.Getenv("ZZ") == "" {
		t.Skip()
	}
	r := rand.New(rand.NewSource(int64(len(os.Getenv("ZZ")))))
	patAtoms := []string{`\ `, "  ", `[\]]`, "[]a]", `\*`, "[!]]", "[a-]", "***", "/**/", "**/", "/**", "[[:digit:][:alpha:]]", "[[:nope:]]", "a", "b", "/", "/", "*", "*", "**", "?", "[", "]", "!", `\`, "-", "[[:alpha:]]", "[!a]", "[a-b]", "^", " ", ":", "ab", "é", `\a`, `\b`, "[ab]", "[^b]"}
	comps := []string{"a", "b", "ab", "ba", "aa", "-", "]", "[", `\`, "x y", "é", "a!", "*", "?", "b-", "a]"}
	var cases []matchCase
	for n := 0; n < 1500; n++ {
		var pats []string
		for k := 0; k < 1+r.Intn(4); k++ {
			var sb strings.Builder
			for j := 0; j < 1+r.Intn(6); j++ {
				sb.WriteString(patAtoms[r.Intn(len(patAtoms))])
			}
			s := sb.String()
			if Validate(s) != nil {
				continue
			}
			pats = append(pats, s)
		}
		if len(pats) == 0 {
			continue
		}
		for k := 0; k < 10; k++ {
			var cs []string
			for j := 0; j < 1+r.Intn(4); j++ {
				cs = append(cs, comps[r.Intn(len(comps))])
			}
			cases = append(cases, matchCase{name: "r", patterns: pats, path: strings.Join(cs, "/")})
		}
	}
	v := askGit(t, cases)
	bad := 0
	for i, c := range cases {
		m, err := Compile(c.patterns)
		if err != nil {
			t.Fatal(err)
		}
		if m.Match(c.path) != v[i] {
			bad++
			if bad < 30 {
				t.Errorf("%q %q: ours %v git %v", c.patterns, c.path, !v[i], v[i])
			}
		}
	}
	t.Logf("%d cases, %d bad", len(cases), bad)
}
