//go:build linux

package gc

import (
	"fmt"
	"slices"
	"testing"
)

// TestSortedPathsHas: the cursor lookup answers like a set whatever the
// order of the questions and of the list: in order, backwards, missing
// paths between and beyond the listed ones, repeats, an unsorted list.
func TestSortedPathsHas(t *testing.T) {
	list := []string{"a/b", "a/c", "a/c", "b", "b/a", "c"}
	asked := []string{"", "a", "a/b", "a/bb", "a/c", "a/c", "a0", "b", "b/a", "b/b", "c", "d"}
	orders := []struct {
		name string
		qs   []string
	}{{"in order", asked}, {"backwards", backwards(asked)}}
	for _, l := range [][]string{list, {"c", "a/c", "b/a", "a/b", "b", "a/c"}, nil} {
		for _, o := range orders {
			name, qs := o.name, o.qs
			t.Run(fmt.Sprint(name, l), func(t *testing.T) {
				s := newSortedPaths(l)
				for _, q := range qs {
					if got, want := s.has(q), slices.Contains(l, q); got != want {
						t.Errorf("has(%q) = %v, want %v", q, got, want)
					}
				}
			})
		}
	}
}

// backwards is ps in reverse order, as a new slice.
func backwards(ps []string) []string {
	out := slices.Clone(ps)
	slices.Reverse(out)
	return out
}
