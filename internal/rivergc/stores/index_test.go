package stores

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestLineOrderIsNameOrder: the walk that orders a ledger's lines puts
// them in the byte order of their names, which the engine and the merge
// walk rely on, for ledgers with and without blank lines, across the
// powers of ten; a ledger mostly blank is left to the sort.
func TestLineOrderIsNameOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		lines int
		blank float64
	}{{1, 0}, {9, 0}, {10, 0}, {11, 0.3}, {99, 0}, {100, 0.1}, {1001, 0.5}, {12345, 0.2}, {100000, 0}} {
		var b strings.Builder
		for range c.lines {
			if rng.Float64() >= c.blank {
				b.WriteString(`{"timestamp":"2026-01-01T00:00:00Z"}`)
			}
			b.WriteByte('\n')
		}
		st := ParseLedger("artifacts/evals/results.jsonl", []byte(b.String()))
		got := lineOrder(st.Entries)
		if got == nil {
			t.Fatalf("%d lines (%.0f%% blank): no order", c.lines, 100*c.blank)
		}
		want := make([]int32, len(st.Entries))
		for i := range want {
			want[i] = int32(i)
		}
		slices.SortFunc(want, func(a, b int32) int { return strings.Compare(st.Entries[a].Name, st.Entries[b].Name) })
		if !slices.Equal(got, want) {
			t.Errorf("%d lines (%.0f%% blank): the walk's order differs from the names' order", c.lines, 100*c.blank)
		}
	}
	sparse := ParseLedger("artifacts/evals/results.jsonl", []byte(strings.Repeat("\n", 500)+`{"timestamp":"2026-01-01T00:00:00Z"}`))
	if got := lineOrder(sparse.Entries); got != nil {
		t.Errorf("a ledger of 500 blank lines and one entry: %v, want the sort's fallback (nil)", got)
	}
	if got := lineOrder(nil); got != nil {
		t.Errorf("no entries: %v", got)
	}
}
