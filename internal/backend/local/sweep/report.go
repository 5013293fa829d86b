//go:build linux

package sweep

import "slices"

// Add adds o to r, field by field: every list is appended to (and kept
// sorted, as Report promises) and every count summed. Callers that run
// Delete in batches merge the batches' reports with it, so that no field
// is forgotten.
func (r *Report) Add(o Report) {
	r.Deleted = mergeSorted(r.Deleted, o.Deleted)
	r.Gone = mergeSorted(r.Gone, o.Gone)
	r.Restored = mergeSorted(r.Restored, o.Restored)
	r.Linked = mergeSorted(r.Linked, o.Linked)
	n := len(r.Errors)
	r.Errors = append(r.Errors, o.Errors...)
	if n > 0 && len(o.Errors) > 0 {
		sortErrors(r.Errors)
	}
	r.NotAttempted += o.NotAttempted
	r.NotIntended += o.NotIntended
	if r.IntendErr == nil {
		r.IntendErr = o.IntendErr
	}
	r.Unprotected += o.Unprotected
}

// mergeSorted appends b to a and sorts the result when the two did not
// simply follow each other (batches handed out in path order do).
func mergeSorted(a, b []string) []string {
	n := len(a)
	a = append(a, b...)
	if n > 0 && len(b) > 0 && a[n-1] > a[n] {
		slices.Sort(a)
	}
	return a
}
