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
	gone := func(i int) bool { return i < len(removed) && removed[i] }
	var parts func(emit func([]byte))
	if st.open < 0 {
		parts = func(emit func([]byte)) {
			at := 0
			for i, e := range st.Entries {
				if gone(i) {
					emit(data[at:e.Start])
					at = e.End
				}
			}
			emit(data[at:])
		}
	} else {
		var kept []int
		for i := range st.Entries {
			if !gone(i) {
				kept = append(kept, i)
			}
		}
		if len(kept) == len(st.Entries) {
			return data
		}
		parts = func(emit func([]byte)) { st.memoryParts(data, kept, emit) }
	}
	n := 0
	parts(func(b []byte) { n += len(b) })
	out := make([]byte, 0, n)
	parts(func(b []byte) { out = append(out, b...) })
	return out
}

// memoryParts hands emit, in order, the pieces of the index that keeps
// the elements kept (indexes into Entries, in file order).
func (st Store) memoryParts(data []byte, kept []int, emit func([]byte)) {
	emit(data[:st.open+1])
	if len(kept) == 0 {
		emit(data[st.close:])
		return
	}
	es := st.Entries
	emit(data[st.open+1 : es[0].Start]) // the space before the first element
	for k, i := range kept {
		if k > 0 {
			// The separator that followed the previous kept element.
			p := kept[k-1]
			emit(data[es[p].End:es[p+1].Start])
		}
		emit(data[es[i].Start:es[i].End])
	}
	last := es[len(es)-1]
	emit(data[last.End:]) // the space before "]", and the rest
}
