package stores

import "io"

// Job is one store to rewrite without its removed entries (SPEC D5):
// Removed[i] marks the i-th entry of the store in file order (set by
// Index.Mark), Count is how many are marked.
type Job struct {
	Index   *Index
	Removed []bool
	Count   int
}

// Path is the store's path below the root.
func (j Job) Path() string { return j.Index.store.Path }

// Size is the length of the store as it was read.
func (j Job) Size() int { return len(j.Index.data) }

// KeptLen is the length of the rewritten store.
func (j Job) KeptLen() int { return j.Index.store.SplicedLen(j.Index.data, j.Removed) }

// Kept is the rewritten store, built whole.
func (j Job) Kept() []byte { return j.Index.store.Splice(j.Index.data, j.Removed) }

// WriteTo writes the rewritten store to w span by span, never holding
// it whole (decision 268).
func (j Job) WriteTo(w io.Writer) (int64, error) {
	return j.Index.store.WriteSpliced(w, j.Index.data, j.Removed)
}
