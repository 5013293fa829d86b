package entries

// Splice returns data without the entries removed marks: removed[i] for
// Entries[i] (an index past removed is kept), so that the caller, who
// found each removal by its place, looks no name up. Kept entries keep their bytes and their order. In the memory index the
// separators around the kept elements are the original ones, so an index
// in upstream's form (JSON.stringify(index, null, 2) + "\n") comes out in
// exactly that form for the kept entries; removing every element leaves
// "[]", as JSON.stringify writes an empty array. data must be the bytes
// the store was parsed from.
func (st Store) Splice(data []byte, removed []bool) []byte {
	if st.open < 0 {
		return st.spliceLines(data, removed)
	}
	var kept []int
	for i := range st.Entries {
		if i >= len(removed) || !removed[i] {
			kept = append(kept, i)
		}
	}
	if len(kept) == len(st.Entries) {
		return data
	}
	out := make([]byte, 0, len(data))
	out = append(out, data[:st.open+1]...)
	if len(kept) == 0 {
		return append(out, data[st.close:]...)
	}
	es := st.Entries
	out = append(out, data[st.open+1:es[0].Start]...) // the space before the first element
	for k, i := range kept {
		if k > 0 {
			// The separator that followed the previous kept element.
			p := kept[k-1]
			out = append(out, data[es[p].End:es[p+1].Start]...)
		}
		out = append(out, data[es[i].Start:es[i].End]...)
	}
	last := es[len(es)-1]
	return append(out, data[last.End:]...) // the space before "]", and the rest
}

func (st Store) spliceLines(data []byte, removed []bool) []byte {
	out := make([]byte, 0, len(data))
	at := 0
	for i, e := range st.Entries[:min(len(removed), len(st.Entries))] {
		if removed[i] {
			out = append(out, data[at:e.Start]...)
			at = e.End
		}
	}
	return append(out, data[at:]...)
}
