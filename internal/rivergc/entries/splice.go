package entries

// Splice returns data without the entries removed marks: removed[i] for
// Entries[i] (an index past removed is kept), so that the caller, who
// found each removal by its place, looks no name up. Kept entries keep
// their bytes and their order. In the memory index the separators around
// the kept elements are the original ones, so an index in upstream's form
// (JSON.stringify(index, null, 2) + "\n") comes out in exactly that form
// for the kept entries; removing every element leaves "[]", as
// JSON.stringify writes an empty array. data must be the bytes the store
// was parsed from. The result is allocated at its exact size (a store
// that loses two thirds of its entries does not hold a copy of the whole).
func (st Store) Splice(data []byte, removed []bool) []byte {
	n := st.SplicedLen(data, removed)
	if n == len(data) {
		return data
	}
	out := make([]byte, 0, n)
	st.spans(data, removed, func(from, to int) { out = append(out, data[from:to]...) })
	return out
}

// SplicedLen is len(Splice(data, removed)) without building it: a
// dry-run's reclaimable space for the store is len(data) minus it, the
// bytes --force's rewrite then frees, separators included (decision 241).
func (st Store) SplicedLen(data []byte, removed []bool) int {
	n := 0
	st.spans(data, removed, func(from, to int) { n += to - from })
	return n
}

// spans calls keep with each span of data, in order, that Splice keeps.
func (st Store) spans(data []byte, removed []bool, keep func(from, to int)) {
	gone := func(i int) bool { return i < len(removed) && removed[i] }
	if st.open < 0 {
		at := 0
		for i, e := range st.Entries {
			if gone(i) {
				keep(at, e.Start)
				at = e.End
			}
		}
		keep(at, len(data))
		return
	}
	var kept []int
	for i := range st.Entries {
		if !gone(i) {
			kept = append(kept, i)
		}
	}
	if len(kept) == len(st.Entries) {
		keep(0, len(data))
		return
	}
	keep(0, st.open+1)
	if len(kept) == 0 {
		keep(st.close, len(data))
		return
	}
	es := st.Entries
	keep(st.open+1, es[0].Start) // the space before the first element
	for k, i := range kept {
		if k > 0 {
			// The separator that followed the previous kept element.
			p := kept[k-1]
			keep(es[p].End, es[p+1].Start)
		}
		keep(es[i].Start, es[i].End)
	}
	keep(es[len(es)-1].End, len(data)) // the space before "]", and the rest
}
