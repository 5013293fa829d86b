package gitignore

import (
	"math/rand"
	"strings"
	"testing"
)

// checkAgainstRef fails t when the plain-then-memoised wildmatch or the
// memoised dowild disagrees with the backtracking reference on pat and text.
func checkAgainstRef(t *testing.T, pat, text string) {
	t.Helper()
	for _, pathname := range []bool{true, false} {
		want := refDowild(pat, text, pathname)
		if got := dowildMemo(pat, text, pathname); got != want {
			t.Fatalf("dowildMemo(%q, %q, %v) = %d, reference %d", pat, text, pathname, got, want)
		}
		if got := wildmatch(pat, text, pathname); got != (want == wmMatch) {
			t.Fatalf("wildmatch(%q, %q, %v) = %v, reference %d", pat, text, pathname, got, want)
		}
	}
}

// TestWildmatchAgreesWithReference compares the memoised matcher with the
// original backtracking port on seeded random patterns built from the
// constructs whose abort verdicts matter ("**" beside and away from slashes,
// '*' before literals and before '/', classes, escapes) and on texts built
// from bytes those patterns name. Both the exact dowild result (including
// the abort values) and the final verdict must agree.
func TestWildmatchAgreesWithReference(t *testing.T) {
	atoms := []string{"*", "*", "**", "***", "/", "/", "a", "b", "?", "**/", "/**", "/**/", `\*`, `\/`, `\`,
		"[ab]", "[!a]", "[^/]", "[[:alpha:]]", "[[:nope:]]", "[/]", "[a-", "ab", "c"}
	bytesOf := []string{"a", "b", "c", "/", "ab", "*", "ba", "/a", "x"}
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 40000; i++ {
		var pb, tb strings.Builder
		for j := 0; j < 1+r.Intn(7); j++ {
			pb.WriteString(atoms[r.Intn(len(atoms))])
		}
		for j := 0; j < r.Intn(9); j++ {
			tb.WriteString(bytesOf[r.Intn(len(bytesOf))])
		}
		checkAgainstRef(t, pb.String(), tb.String())
	}
}

// TestWildmatchHostileSmall checks small instances of the exponential shapes,
// where the reference still finishes, including texts long enough that the
// plain run spends its budget and the memoised run decides.
func TestWildmatchHostileSmall(t *testing.T) {
	pats := []string{"**/**/**/a*b*c*", "**/**/**/a*b*c", "*a*a*a*a*b", "**/a/**/a/**/b", "a*/**/*b*c/**/d",
		"**/**/a*b*c*/x", "*?*?*?*?/b", "[ab]*[ab]*[ab]*c"}
	texts := []string{
		strings.Repeat("ab/", 12) + "ab",
		strings.Repeat("aab/", 10) + "abc",
		strings.Repeat("a", 40),
		strings.Repeat("a/", 9) + "b",
		strings.Repeat("abx/", 8) + "abc/x",
		strings.Repeat("ab", 20) + "/b",
	}
	over := 0
	for _, p := range pats {
		for _, s := range texts {
			w := wmState{pat: p, text: s, pathname: true, budget: wmBudgetBase + wmBudgetPerByte*(len(p)+len(s))}
			if w.dowild(0, 0); w.over {
				over++
			}
			checkAgainstRef(t, p, s)
		}
	}
	if over == 0 {
		t.Error("no instance spent the plain run's budget: the memoised path went untested")
	}
}
