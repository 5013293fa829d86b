//go:build linux

package gc

import (
	"slices"

	"github.com/plangate-gc/plangate-gc/internal/backend/local/sweep"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
)

// apply narrows removed[] to what was actually deleted; a file that could
// not be deleted (or was not attempted after an interruption) is still
// there, so it counts as kept; a file already gone is neither. The
// report's lists are sorted and each scope's removals are in path order,
// so each is looked up with a cursor, not hashed: at 30,000 deletions
// three maps of every path cost 12–19 ms of one CPU while the other had
// nothing to do (decision 279).
func (o *Outcome) apply(rep sweep.Report) {
	deleted, gone, linked := newSortedPaths(rep.Deleted), newSortedPaths(rep.Gone), newSortedPaths(rep.Linked)
	o.Errors = append(o.Errors, rep.Errors...)
	if rep.NotAttempted > 0 {
		o.Errors = append(o.Errors, &fserr.Error{Op: fserr.OpDelete, Path: ".", Err: &fserr.InterruptedError{NotAttempted: rep.NotAttempted}})
	}
	if rep.Unprotected > 0 {
		o.Warnings = append(o.Warnings, Warning{Kind: WarnUnprotectedDelete, N: rep.Unprotected})
	}
	for i := range o.Scopes {
		s := &o.Scopes[i]
		if s.Scope.Store() != "" {
			continue // entries, not files: the store's rewrite settles them
		}
		n := 0
		for k, d := range s.Removed {
			switch {
			case gone.has(d.Path):
			case deleted.has(d.Path):
				s.Removed[n], s.Stamps[n] = d, s.Stamps[k]
				n++
				if linked.has(d.Path) {
					s.Linked++
					s.LinkedBytes = s.LinkedBytes.Add(d.SizeBytes)
					o.Linked++
					o.LinkedBytes = o.LinkedBytes.Add(d.SizeBytes)
				} else {
					o.FreedBytes = o.FreedBytes.Add(d.SizeBytes)
					o.FreedAllocated += uint64(max(s.Stamps[k].Allocated, 0))
				}
			default:
				s.Kept++
				s.KeptBytes = s.KeptBytes.Add(d.SizeBytes)
			}
		}
		s.Removed, s.Stamps = s.Removed[:n], s.Stamps[:n]
	}
}

// sortedPaths answers whether a path is in a list sorted in byte order,
// for questions asked mostly in that order: a cursor that moves forward
// answers those at once, a binary search any other.
type sortedPaths struct {
	ps []string
	at int // ps[at] is the next path expected
}

// newSortedPaths takes ps as it is when it is sorted (a sweep.Report's
// lists are), else a sorted copy.
func newSortedPaths(ps []string) *sortedPaths {
	if !slices.IsSorted(ps) {
		ps = slices.Sorted(slices.Values(ps))
	}
	return &sortedPaths{ps: ps}
}

// has reports whether p is in the list.
func (s *sortedPaths) has(p string) bool {
	if s.at < len(s.ps) && s.ps[s.at] == p {
		s.at++
		return true
	}
	i, ok := slices.BinarySearch(s.ps, p)
	if ok {
		s.at = i + 1
	}
	return ok
}
