package entries

// Splice returns data without the entries whose names are in removed.
// Kept entries keep their bytes and their order. In the memory index the
// separators around the kept elements are the original ones, so an index
// in upstream's form (JSON.stringify(index, null, 2) + "\n") comes out in
// exactly that form for the kept entries; removing every element leaves
// "[]", as JSON.stringify writes an empty array. data must be the bytes
// the store was parsed from.
func (st Store) Splice(data []byte, removed map[string]bool) []byte {
	if st.open < 0 {
		return st.spliceLines(data, removed)
	}
	var kept []int
	for i, e := range st.Entries {
		if !removed[e.Name] {
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

func (st Store) spliceLines(data []byte, removed map[string]bool) []byte {
	out := make([]byte, 0, len(data))
	at := 0
	for _, e := range st.Entries {
		if removed[e.Name] {
			out = append(out, data[at:e.Start]...)
			at = e.End
		}
	}
	return append(out, data[at:]...)
}
