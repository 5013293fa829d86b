package skill

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortNewestFirstIsTheCountOrder: the radix sort gives exactly the
// comparison sort's (mtime DESC, rank DESC) on survivors in rank order,
// for mtimes of every spread (equal, a few days, the whole int64 range,
// negative) and counts on both sides of radixMin.
func TestSortNewestFirstIsTheCountOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	spreads := map[string]func() int64{
		"equal":    func() int64 { return 1764374400 },
		"days":     func() int64 { return 1764374400 - rng.Int64N(100)*86400 },
		"seconds":  func() int64 { return 1764374400 - rng.Int64N(1<<24) },
		"anything": func() int64 { return int64(rng.Uint64()) },
		"negative": func() int64 { return -rng.Int64N(1000) },
	}
	for name, mtime := range spreads {
		for _, n := range []int{0, 1, radixMin - 1, radixMin, 5000} {
			keys := make([]ageKey, n)
			for i := range keys {
				keys[i] = ageKey{mtime: mtime(), fileRef: fileRef{idx: int32(rng.IntN(n)), rank: int32(i)}}
			}
			want := slices.Clone(keys)
			slices.SortFunc(want, func(a, b ageKey) int {
				if c := cmp.Compare(b.mtime, a.mtime); c != 0 {
					return c
				}
				return cmp.Compare(b.rank, a.rank)
			})
			sortNewestFirst(keys)
			if !slices.Equal(keys, want) {
				t.Errorf("%s, %d survivors: not in (mtime DESC, rank DESC)", name, n)
			}
		}
	}
}
