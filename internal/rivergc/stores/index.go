package stores

import (
	"slices"
	"strings"

	"github.com/plangate-gc/plangate-gc/internal/rivergc/scan"
)

// Ref says which entry of a single source a name of an entry scope
// stands for (SPEC D2): the store, and the memory entry's id or the
// ledger line's number and timestamp text.
type Ref struct {
	Store     string
	ID        string
	Line      int
	Timestamp string
}

// Index says what each name of an entry scope stands for (SPEC D2):
// the entries in name order, four bytes an entry rather than a map of
// records, with the bytes they were read from.
type Index struct {
	store Store
	data  []byte
	order []int32 // indexes into store.Entries, by name
	mtime int64   // the store's mtime: the timestamp of an entry without one
}

// NewIndex orders the entries of st, read from data, by name; mtime is
// the store's own time in epoch seconds, the timestamp of an entry
// without one. The entries are sorted as indexes: a sort of the records
// would move 48 bytes each.
func NewIndex(st Store, data []byte, mtime int64) *Index {
	x := &Index{store: st, data: data, mtime: mtime}
	if x.order = lineOrder(st.Entries); x.order != nil {
		return x
	}
	x.order = make([]int32, len(st.Entries))
	for i := range x.order {
		x.order[i] = int32(i)
	}
	es := st.Entries
	slices.SortFunc(x.order, func(a, b int32) int {
		if c := strings.Compare(es[a].Name, es[b].Name); c != 0 {
			return c
		}
		return int(a - b) // file order among equal names: a stable result
	})
	return x
}

// lineOrder returns the ledger's lines in name order without comparing
// names, or nil when es is not a ledger's lines (numbered, increasing) or
// its numbers are sparse. The names are the store's path, "#" and the
// line number, so their byte order is that of the numbers as decimal
// strings: a preorder walk of the tree of decimal prefixes (1, 10, 100,
// …, 101, …, 11, …, 2, …) visits them in it. At a million lines it takes
// a hundredth of the comparison sort's time.
func lineOrder(es []Entry) []int32 {
	if len(es) == 0 || es[0].Line() <= 0 {
		return nil
	}
	last := es[len(es)-1].Line()
	if last > 4*len(es)+64 {
		return nil // mostly blank lines: the walk would visit them all, and the map of lines is 4 bytes a line
	}
	// line → 1 + its entry's index (0: blank); none where no line is
	// blank (then line p is entry p-1: 4 bytes a line saved).
	var at []int32
	if last != len(es) {
		at = make([]int32, last+1)
	}
	prev := 0
	for i, e := range es {
		line := e.Line()
		if line <= prev {
			return nil
		}
		if prev = line; at != nil {
			at[line] = int32(i + 1)
		}
	}
	order := make([]int32, 0, len(es))
	var walk func(p int)
	walk = func(p int) {
		switch {
		case at == nil:
			order = append(order, int32(p-1))
		case at[p] > 0:
			order = append(order, at[p]-1)
		}
		for c := p * 10; c <= p*10+9 && c <= last; c++ {
			walk(c)
		}
	}
	for p := 1; p <= 9 && p <= last; p++ {
		walk(p)
	}
	return order
}

// Store is the store the index orders.
func (x *Index) Store() *Store { return &x.store }

// Len is the number of entries.
func (x *Index) Len() int { return len(x.order) }

// Entry is the k-th entry in name order.
func (x *Index) Entry(k int) *Entry { return &x.store.Entries[x.order[k]] }

// File is the scan record of the k-th entry in name order: its name, its
// size and its own timestamp (else the store's mtime).
func (x *Index) File(k int) scan.File {
	e := x.Entry(k)
	f := scan.File{Path: e.Name, Size: int64(e.Size()), Timestamp: x.mtime, TimestampSource: scan.SourceMtime}
	if e.Stamped {
		f.Timestamp, f.TimestampSource = e.Timestamp, scan.SourceMetadata
	}
	return f
}

// Live reports whether the k-th entry in name order is live (a guard of
// its own; SPEC D3).
func (x *Index) Live(k int) bool { return x.Entry(k).Live }

// Ref says what the k-th entry in name order stands for. The merge walk
// that pairs the engine's removals with the entries keeps each one's
// place, so no name is looked up again.
func (x *Index) Ref(k int) Ref {
	e := x.Entry(k)
	return Ref{Store: x.store.Path, ID: e.ID(), Line: e.Line(), Timestamp: e.RawTimestamp(x.data)}
}

// Bytes are the k-th entry's serialized bytes, as read.
func (x *Index) Bytes(k int) []byte {
	e := x.Entry(k)
	return x.data[e.Start:e.End]
}

// Marks is a fresh set of removal marks for the store's entries, set by
// Mark and read by Freed and a Job.
func (x *Index) Marks() []bool { return make([]bool, len(x.store.Entries)) }

// Mark marks the k-th entry in name order as removed.
func (x *Index) Mark(marks []bool, k int) { marks[x.order[k]] = true }

// Freed is how many bytes the store shrinks by without the marked
// entries (and the separators between them).
func (x *Index) Freed(marks []bool) int { return len(x.data) - x.store.SplicedLen(x.data, marks) }
