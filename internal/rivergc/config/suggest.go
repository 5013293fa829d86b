//go:build linux

package config

import (
	"slices"
	"strings"

	"github.com/plangate-gc/plangate-gc/skill"
)

// scopeError is an unknown --scope value, with the nearest scope name
// suggested when one is close.
func scopeError(s string) error {
	return withHint(Invalid("gc-cfg-scope", q(s)), suggest(s, true))
}

// withHint adds a "did you mean" for name to a config error ("" for none).
func withHint(err error, name string) error {
	if ce, ok := err.(*Error); ok && name != "" {
		ce.Hint = name
	}
	return err
}

// suggest is the scope name (or "all", with all) nearest to s, when it is
// near enough to be a typo: at most 2 edits, or a quarter of a longer
// name (a swap of two neighbours is one edit), and fewer than half of the
// name; "" otherwise. Ties go to the first in
// skill.Scopes() order.
func suggest(s string, all bool) string {
	names := []string{}
	for _, sc := range skill.Scopes() {
		names = append(names, string(sc))
	}
	if all {
		names = append(names, "all")
	}
	lower := strings.ToLower(strings.TrimSpace(s))
	best, bestD := "", len(lower)+len("review-artifacts")
	for _, n := range names {
		d := editDistance(lower, n)
		if d < bestD && d <= max(2, len(n)/4) && 2*d < len(n) {
			best, bestD = n, d
		}
	}
	if best == "" {
		best = wordOf(lower, names)
	}
	return best
}

// wordOf is the first name of which s is a whole word or the start (at
// least 3 letters): "review" for review-artifacts, "ledger" for
// eval-ledger, "entries" for memory-entries (SPEC B9); "" for none.
func wordOf(s string, names []string) string {
	if len(s) < 3 {
		return ""
	}
	for _, n := range names {
		if strings.HasPrefix(n, s) || slices.Contains(strings.Split(n, "-"), s) {
			return n
		}
	}
	return ""
}

// editDistance is the optimal-string-alignment distance between a and b
// (insertions, deletions, substitutions and swaps of two neighbours).
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
