//go:build linux

package report

import (
	"cmp"
	"container/heap"
	"iter"
	"slices"
	"strings"

	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
)

// removalAt names one removal by its scope's index and its place in the
// scope's Removed: 8 bytes a removal, so ordering a million of them holds
// no copy of their records.
type removalAt struct{ s, k int32 }

// removalOrder is the table's order of removals (SPEC B9): largest
// first, ties by path (byte order), so the row that matters most is
// never row 92 and the order never depends on the run.
type removalOrder struct {
	o   *gc.Outcome
	ats []removalAt
}

// compare is negative when a comes before b.
func (r *removalOrder) compare(a, b removalAt) int {
	da, db := &r.o.Scopes[a.s].Removed[a.k], &r.o.Scopes[b.s].Removed[b.k]
	return cmp.Or(cmp.Compare(db.SizeBytes, da.SizeBytes), strings.Compare(da.Path, db.Path))
}

// The heap keeps the n first in order with the last of them on top.
func (r *removalOrder) Len() int           { return len(r.ats) }
func (r *removalOrder) Less(i, j int) bool { return r.compare(r.ats[i], r.ats[j]) > 0 }
func (r *removalOrder) Swap(i, j int)      { r.ats[i], r.ats[j] = r.ats[j], r.ats[i] }
func (r *removalOrder) Push(x any)         { r.ats = append(r.ats, x.(removalAt)) }
func (r *removalOrder) Pop() any {
	x := r.ats[len(r.ats)-1]
	r.ats = r.ats[:len(r.ats)-1]
	return x
}

// largestRemovals is the first n removals in the table's order: one pass
// that keeps the n largest seen (a heap of n), then those n sorted.
func largestRemovals(o gc.Outcome, n int) iter.Seq[gc.Removed] {
	r := &removalOrder{o: &o}
	for s := range o.Scopes {
		for k := range o.Scopes[s].Removed {
			at := removalAt{int32(s), int32(k)}
			switch {
			case len(r.ats) < n:
				heap.Push(r, at)
			case n > 0 && r.compare(at, r.ats[0]) < 0:
				r.ats[0] = at
				heap.Fix(r, 0)
			}
		}
	}
	slices.SortFunc(r.ats, r.compare)
	return func(yield func(gc.Removed) bool) {
		for _, at := range r.ats {
			s := &o.Scopes[at.s]
			rm := gc.Removed{Decision: s.Removed[at.k], Scope: s.Scope}
			if int(at.k) < len(s.Stamps) {
				rm.Timestamp, rm.Source = s.Stamps[at.k].Timestamp, s.Stamps[at.k].Source
			}
			if !yield(rm) {
				return
			}
		}
	}
}
