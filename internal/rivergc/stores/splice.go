package stores

import (
	"bytes"
	"io"
)

// Splice returns data without the entries removed marks: removed[i] for
// Entries[i] (an index past removed is kept), so that the caller, who
// found each removal by its place, looks no name up. Kept entries keep
// their bytes and their order. In the memory index the separators around
// the kept elements are the original ones, so an index in upstream's form
// (JSON.stringify(index, null, 2) + "\n") comes out in exactly that form
// for the kept entries; removing every element leaves "[]", as
// JSON.stringify writes an empty array. data must be the bytes the store
// was parsed from. The result is allocated at its exact size (a store
// that loses two thirds of its entries does not hold a copy of the
// whole); it is WriteSpliced's output, for a caller that needs the copy
// in memory (a bucket's object). A rewrite on disk streams it instead.
func (st Store) Splice(data []byte, removed []bool) []byte {
	n := st.SplicedLen(data, removed)
	if n == len(data) {
		return data
	}
	out := bytes.NewBuffer(make([]byte, 0, n))
	st.WriteSpliced(out, data, removed) //nolint:errcheck // a bytes.Buffer's Write never fails
	return out.Bytes()
}

// WriteSpliced writes to w, span by span and in order, the bytes Splice
// returns, and returns how many it wrote: --force's rewrite streams the
// kept copy into its temporary file instead of building it in memory
// (decision 268). The spans are slices of data, many of them a few
// bytes long, so w should buffer (rewrite.Replace gives a bufio.Writer).
// It stops at the first error of w.
func (st Store) WriteSpliced(w io.Writer, data []byte, removed []bool) (n int64, err error) {
	st.spans(data, removed, func(from, to int) bool {
		if from == to {
			return true
		}
		var m int
		m, err = w.Write(data[from:to])
		n += int64(m)
		return err == nil
	})
	return n, err
}

// SplicedLen is len(Splice(data, removed)) without building it: a
// dry-run's reclaimable space for the store is len(data) minus it, the
// bytes --force's rewrite then frees, separators included (decision
// 241), and the size a rewrite announces before it streams the copy.
func (st Store) SplicedLen(data []byte, removed []bool) int {
	n := 0
	st.spans(data, removed, func(from, to int) bool { n += to - from; return true })
	return n
}

// spans calls keep with each span of data, in order, that Splice keeps,
// until keep returns false.
func (st Store) spans(data []byte, removed []bool, keep func(from, to int) bool) {
	gone := func(i int) bool { return i < len(removed) && removed[i] }
	es := st.Entries
	if st.open < 0 {
		at := 0
		for i, e := range es {
			if gone(i) {
				if !keep(at, e.Start) {
					return
				}
				at = e.End
			}
		}
		keep(at, len(data))
		return
	}
	// The memory index: the bytes before the first element and after the
	// last stay; each kept element after the first kept one is preceded
	// by the separator that followed the kept element before it. No list
	// of the kept elements is built (it was 8 bytes a kept entry).
	prev := -1 // the last kept element so far
	for i := range es {
		if gone(i) {
			continue
		}
		var ok bool
		switch {
		case prev >= 0: // the separator after the previous kept element
			ok = keep(es[prev].End, es[prev+1].Start) && keep(es[i].Start, es[i].End)
		default: // the first kept one: "[" and the space before the first element
			ok = keep(0, es[0].Start) && keep(es[i].Start, es[i].End)
		}
		if !ok {
			return
		}
		prev = i
	}
	switch {
	case prev < 0 && len(es) > 0: // every element removed: "[]"
		if keep(0, st.open+1) {
			keep(st.close, len(data))
		}
	case prev < 0: // an empty array: the store as it is
		keep(0, len(data))
	default:
		keep(es[len(es)-1].End, len(data)) // the space before "]", and the rest
	}
}
