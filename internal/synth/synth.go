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

// Inventory writes a memory-scope document with n entries: ages cycle
// through 0–99 days (a tenth are aged out), so every mtime is shared by many
// entries and the count policy (maxEntries = n/2) has ties to break.
func Inventory(out io.Writer, n int) error {
	w := bufio.NewWriter(out)
	fmt.Fprint(w, `{"inventory":{"scope":"memory","paths":[`)
	for i := range n {
		if i > 0 {
			w.WriteByte(',')
		}
		fmt.Fprintf(w, `{"path":".river/memory/snapshots/%07d.json","sizeBytes":%d,"mtimeEpoch":%d}`, i, 1000+i%5000, Now-(i%100)*86400)
	}
	fmt.Fprintf(w, `]},"retention":{"days":90,"maxEntries":%d,"maxSizeMb":500},"now":%d,`+
		`"hardGuards":[".river/memory/index.json"],"excludes":["*.keep","snapshots/00000*"]}`+"\n", n/2, Now)
	return w.Flush()
}
