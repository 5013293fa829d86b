// Package synth generates synthetic skill input documents for benchmarks,
// so that large inputs are produced on demand and never committed.
package synth

import (
	"bufio"
	"fmt"
	"io"
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

// Layouts names every layout, in order, for benchmarks and reports.
var Layouts = []struct {
	Name   string
	Layout Layout
}{{"compact", Compact}, {"fixture", Fixture}}

// Inventory writes a compact memory-scope document with n entries: ages
// cycle through 0–99 days (a tenth are aged out), so every mtime is shared
// by many entries and the count policy (maxEntries = n/2) has ties to break.
func Inventory(out io.Writer, n int) error {
	return InventoryLayout(out, n, Compact)
}

// InventoryLayout writes the document of Inventory in the given layout.
func InventoryLayout(out io.Writer, n int, l Layout) error {
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
	for i := range n {
		if i > 0 {
			w.WriteString(next)
		}
		mtime := fmt.Sprint(Now - (i%100)*86400)
		if l == Fixture && i%50 == 49 {
			mtime = "null"
		}
		fmt.Fprintf(w, `{"path":%s".river/memory/snapshots/%07d.json",%s"sizeBytes":%s%d,%s"mtimeEpoch":%s%s}`,
			sep, i, sep, sep, 1000+i%5000, sep, sep, mtime)
	}
	w.WriteString(close)
	if l == Fixture {
		fmt.Fprintf(w, "\n  },\n  \"retention\": {\"days\": 90, \"maxEntries\": %d, \"maxSizeMb\": 500},\n  \"now\": %d,\n"+
			"  \"hardGuards\": [\".river/memory/index.json\"],\n  \"excludes\": [\"*.keep\", \"snapshots/00000*\"]\n}\n", n/2, Now)
	} else {
		fmt.Fprintf(w, `},"retention":{"days":90,"maxEntries":%d,"maxSizeMb":500},"now":%d,`+
			`"hardGuards":[".river/memory/index.json"],"excludes":["*.keep","snapshots/00000*"]}`+"\n", n/2, Now)
	}
	return w.Flush()
}
