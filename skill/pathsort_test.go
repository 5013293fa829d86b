package skill

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestSortByPathIsByteOrder holds the key sort to a comparison sort of the
// paths (ties by index) on inputs built to reach every branch: shared
// prefixes longer than a key, paths ending inside a key, trailing NULs
// (equal keys, different paths), duplicates, runs below and above the
// small-run size, and an empty path.
func TestSortByPathIsByteOrder(t *testing.T) {
	alphabet := []string{"a", "b", "/", "\x00", "\xff", "é", ".river/memory/"}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 5, 12, 13, 40, 300, 2000} {
		for trial := range 20 {
			entries := make([]Entry, n)
			prefix := strings.Repeat("p", rng.IntN(20))
			for i := range entries {
				var b strings.Builder
				b.WriteString(prefix)
				for range rng.IntN(4 + trial) {
					b.WriteString(alphabet[rng.IntN(len(alphabet))])
				}
				entries[i].Path = b.String()
				if i > 0 && rng.IntN(5) == 0 { // duplicates
					entries[i].Path = entries[rng.IntN(i)].Path
				}
			}
			want := checkOrder(t, entries)
			// The same paths in order (the shortcut of decision 269), and
			// in order but for the last two.
			sorted := make([]Entry, n)
			for i, k := range want {
				sorted[i] = entries[k]
			}
			checkOrder(t, sorted)
			if n > 1 {
				sorted[n-2], sorted[n-1] = sorted[n-1], sorted[n-2]
				checkOrder(t, sorted)
			}
		}
	}
}

func paths(entries []Entry) []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = fmt.Sprintf("%d:%q", i, e.Path)
	}
	return out
}

// checkOrder holds sortByPath to a comparison sort of entries' paths
// (ties by index), and returns that order.
func checkOrder(t *testing.T, entries []Entry) []int32 {
	t.Helper()
	want := make([]int32, len(entries))
	for i := range want {
		want[i] = int32(i)
	}
	slices.SortFunc(want, func(a, b int32) int {
		return cmp.Or(strings.Compare(entries[a].Path, entries[b].Path), cmp.Compare(a, b))
	})
	if got := sortByPath(entries); !slices.Equal(got, want) {
		t.Fatalf("got %v\nwant %v\npaths %q", got, want, paths(entries))
	}
	return want
}
