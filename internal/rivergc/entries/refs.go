package entries

// Guards returns the names of the entries that must stay whatever the
// policy: the live ones (SPEC D3, D4), in file order.
func (st Store) Guards() []string {
	var gs []string
	for _, e := range st.Entries {
		if e.Live {
			gs = append(gs, e.Name)
		}
	}
	return gs
}

// Referenced returns the names, among removed, that an entry which stays
// refers to (SPEC D3: a kept entry's supersededBy, the suppression a kept
// resurface names, the resurfaces naming a kept suppression). The caller
// guards them and judges again until nothing is returned: each round only
// adds guards, so it ends after at most len(Entries) rounds.
func (st Store) Referenced(removed map[string]bool) []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range st.Entries {
		if removed[e.Name] {
			continue
		}
		for _, r := range e.refs {
			if removed[r] && !seen[r] {
				seen[r] = true
				out = append(out, r)
			}
		}
	}
	return out
}

// Unreadable returns the ledger lines that could not be read, in file
// order.
func (st Store) Unreadable() []Entry {
	var out []Entry
	for _, e := range st.Entries {
		if e.Unreadable {
			out = append(out, e)
		}
	}
	return out
}
