// Package synth generates synthetic skill input documents for benchmarks,
// so that large inputs are produced on demand and never committed.
package synth

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
)

// Now is the reference time of every generated document.
const Now = 1764374400

// Layout is how a generated document is laid out; the entries are the same.
type Layout int

const (
	// Compact is one line without a space: what river-gc --emit-inventory
	// and most programs write.
	Compact Layout = iota
	// Fixture is laid out like fixtures/*/input.json: indented, one entry
	// a line, a space after every colon and comma, and every 50th entry
	// with a null mtimeEpoch.
	Fixture
)

// Shape is a layout and an order: the entries of a document are the same
// in every shape.
type Shape struct {
	Name   string
	Layout Layout
	// Shuffled writes the entries in a fixed pseudo-random order instead
	// of by path (the order river-gc's scan and most listings produce).
	Shuffled bool
	// ExtraKey gives every entry a key the schema does not know (SPEC A2
	// allows them), holding a string.
	ExtraKey bool
	// CountAll sets maxEntries to 10, so that the count limit removes
	// almost every entry: removed[] and evidence[] then hold nearly every
	// path, and the output is about twice the input.
	CountAll bool
}

// Shapes names every shape the benchmarks measure, in order.
var Shapes = []Shape{
	{"compact", Compact, false, false, false},
	{"fixture", Fixture, false, false, false},
	{"compact-shuffled", Compact, true, false, false},
	{"fixture-shuffled", Fixture, true, false, false},
	{"fixture-extra-key", Fixture, false, true, false},
	{"compact-shuffled-count", Compact, true, false, true},
	{"fixture-shuffled-count", Fixture, true, false, true},
}

// Inventory writes a compact memory-scope document with n entries: ages
// cycle through 0–99 days (a tenth are aged out), so every mtime is shared
// by many entries and the count policy (maxEntries = n/2) has ties to break.
func Inventory(out io.Writer, n int) error {
	return InventoryShape(out, n, Shape{Layout: Compact})
}

// InventoryShape writes the document of Inventory in the given shape.
func InventoryShape(out io.Writer, n int, shape Shape) error {
	l := shape.Layout
	w := bufio.NewWriter(out)
	// sep is what follows a colon or a comma inside an entry or an object;
	// open, next and close frame the entries of paths.
	sep, open, next, close := "", "[", ",", "]"
	if l == Fixture {
		sep, open, next, close = " ", "[\n      ", ",\n      ", "\n    ]"
		fmt.Fprint(w, "{\n  \"inventory\": {\n    \"scope\": \"memory\",\n    \"paths\": ")
	} else {
		fmt.Fprint(w, `{"inventory":{"scope":"memory","paths":`)
	}
	w.WriteString(open)
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	if shape.Shuffled {
		// A fixed seed: the same document on every run and machine.
		rand.New(rand.NewPCG(27, 1)).Shuffle(n, func(a, b int) { order[a], order[b] = order[b], order[a] })
	}
	for k, i := range order {
		if k > 0 {
			w.WriteString(next)
		}
		mtime := fmt.Sprint(Now - (i%100)*86400)
		if l == Fixture && i%50 == 49 {
			mtime = "null"
		}
		fmt.Fprintf(w, `{"path":%s".river/memory/snapshots/%07d.json",%s"sizeBytes":%s%d,`, sep, i, sep, sep, 1000+i%5000)
		if shape.ExtraKey {
			fmt.Fprintf(w, `%s"sha1":%s"%040x",`, sep, sep, i)
		}
		fmt.Fprintf(w, `%s"mtimeEpoch":%s%s}`, sep, sep, mtime)
	}
	w.WriteString(close)
	maxEntries := n / 2
	if shape.CountAll {
		maxEntries = 10
	}
	if l == Fixture {
		fmt.Fprintf(w, "\n  },\n  \"retention\": {\"days\": 90, \"maxEntries\": %d, \"maxSizeMb\": 500},\n  \"now\": %d,\n"+
			"  \"hardGuards\": [\".river/memory/index.json\"],\n  \"excludes\": [\"*.keep\", \"snapshots/00000*\"]\n}\n", maxEntries, Now)
	} else {
		fmt.Fprintf(w, `},"retention":{"days":90,"maxEntries":%d,"maxSizeMb":500},"now":%d,`+
			`"hardGuards":[".river/memory/index.json"],"excludes":["*.keep","snapshots/00000*"]}`+"\n", maxEntries, Now)
	}
	return w.Flush()
}
