package stores

import (
	"slices"
	"unsafe"
)

// Guards appends to gs the names of the entries that must stay whatever
// the policy: the live ones (SPEC D3, D4), in file order, for a caller
// that hands them to the engine as guards (river gc marks the engine's
// entries instead: skill.Entry.Guarded).
func (st Store) Guards(gs []string) []string {
	n := 0
	for _, e := range st.Entries {
		if e.Live {
			n++
		}
	}
	if n == 0 {
		return gs
	}
	// One allocation: an index of 300,000 live elements grew 28 MB of
	// slices for its 5.
	gs = slices.Grow(gs, n)
	for _, e := range st.Entries {
		if e.Live {
			gs = append(gs, e.Name)
		}
	}
	return gs
}

// Refers reports whether any entry refers to another (SPEC D3): only
// then can guarding the live entries call for more guards.
func (st Store) Refers() bool { return len(st.refs) > 0 }

// Referenced returns the names, among removed, that an entry which stays
// refers to, directly or through other such entries (SPEC D3: a kept
// entry's supersededBy, the suppression a kept resurface names, the
// resurfaces naming a kept suppression), in file order. The caller guards
// them and judges again until nothing is returned: each round only adds
// guards, and following references transitively makes a chain cost one
// round, not one per link.
func (st Store) Referenced(removed map[string]bool) []string {
	if len(st.refs) == 0 {
		return nil
	}
	// Only the names some entry refers to need finding.
	byName := make(map[string][]int, len(st.refs))
	for _, r := range st.refs {
		byName[r.to] = nil
	}
	for i, e := range st.Entries {
		if ks, ok := byName[e.Name]; ok {
			byName[e.Name] = append(ks, i)
		}
	}
	reached := make([]bool, len(st.Entries))
	var queue []int
	for i, e := range st.Entries {
		if !removed[e.Name] {
			reached[i] = true
			queue = append(queue, i)
		}
	}
	for len(queue) > 0 {
		i := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		k, _ := slices.BinarySearchFunc(st.refs, i, func(r ref, i int) int { return r.from - i })
		for ; k < len(st.refs) && st.refs[k].from == i; k++ {
			for _, t := range byName[st.refs[k].to] {
				if !reached[t] {
					reached[t] = true
					queue = append(queue, t)
				}
			}
		}
	}
	var names []string
	seen := map[string]bool{}
	for i, e := range st.Entries {
		if reached[i] && removed[e.Name] && !seen[e.Name] {
			seen[e.Name] = true
			names = append(names, e.Name)
		}
	}
	return names
}

// Undecided names the first memory entry, in file order, kept because
// river gc cannot read a deciding value as upstream does, and counts
// them.
func (st Store) Undecided() (first string, n int) {
	return st.count(func(e *Entry) bool { return e.Undecided })
}

// Unreadable names the first ledger line, in file order, that could not
// be read, and counts them. No list of them is made: a ledger of 300,000
// lines "1" grew 83 MB of copies of its entries for one.
func (st Store) Unreadable() (first string, n int) {
	return st.count(func(e *Entry) bool { return e.Unreadable })
}

// count names the first entry, in file order, that is, and counts them.
func (st Store) count(is func(*Entry) bool) (first string, n int) {
	for i := range st.Entries {
		if e := &st.Entries[i]; is(e) {
			if n == 0 {
				first = e.Name
			}
			n++
		}
	}
	return first, n
}

// Held is the memory the parsed store holds beside its text, in bytes:
// its entries and their names (names a store shares count once a name).
// The caller sizes the collector's limit by it.
func (st Store) Held() int64 {
	n := int64(cap(st.Entries)) * int64(unsafe.Sizeof(Entry{}))
	for _, e := range st.Entries {
		n += int64(len(e.Name))
	}
	return n + int64(cap(st.refs))*int64(unsafe.Sizeof(ref{}))
}
