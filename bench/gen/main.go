// Command gen writes a synthetic plangate-gc input document with -n
// entries to stdout, for measuring the binary on inputs too big to commit
// (-fixture: laid out like fixtures/*/input.json instead of compact;
// -shuffled: the entries in a fixed pseudo-random order, not by path;
// -count-all: maxEntries 10, so that the count limit removes nearly all).
// With -kind it writes one of the hostile streams of SPEC B4 instead, each
// around one valid one-entry document (-n sets its size):
//
//	unknown   one unknown key holding an array of n small objects
//	rootkeys  n unknown keys at the top level, each holding a small object
//	dupkey    one unknown object repeating one key n times
//	distinct  one unknown object with n distinct keys
//	tiny      n one-entry documents, one per line
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/plangate-gc/plangate-gc/internal/synth"
)

// base is a valid document without its closing brace.
const base = `{"inventory":{"scope":"memory","paths":[{"path":".river/memory/a.json","sizeBytes":1,"mtimeEpoch":1}]},` +
	`"retention":{"days":90,"maxEntries":1000,"maxSizeMb":500},"now":1764374400`

func main() {
	n := flag.Int("n", 1000000, "number of inventory entries (or of the hostile kind's units)")
	kind := flag.String("kind", "inventory", "inventory, unknown, rootkeys, dupkey, distinct or tiny")
	fixture := flag.Bool("fixture", false, "lay the inventory out like fixtures/*/input.json (one entry a line, spaces, a few null mtimes)")
	shuffled := flag.Bool("shuffled", false, "write the inventory's entries in a fixed pseudo-random order, not by path")
	countAll := flag.Bool("count-all", false, "set maxEntries to 10, so that the count limit removes almost every entry")
	flag.Parse()
	var err error
	if *kind == "inventory" {
		layout := synth.Compact
		if *fixture {
			layout = synth.Fixture
		}
		err = synth.InventoryShape(os.Stdout, *n, synth.Shape{Layout: layout, Shuffled: *shuffled, CountAll: *countAll})
	} else {
		w := bufio.NewWriterSize(os.Stdout, 1<<16)
		if err = hostile(w, *kind, *n); err == nil {
			err = w.Flush()
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// hostile writes the stream of the given kind.
func hostile(w io.Writer, kind string, n int) error {
	list := func(open string, item func(i int) string, closing string) error {
		fmt.Fprint(w, base+open)
		for i := range n {
			if i > 0 {
				fmt.Fprint(w, ",")
			}
			fmt.Fprint(w, item(i))
		}
		_, err := fmt.Fprint(w, closing+"\n")
		return err
	}
	switch kind {
	case "unknown":
		return list(`,"x-extra":[`, func(i int) string {
			return fmt.Sprintf(`{"id":%d,"name":"entry-%08d","tags":["a","b","c"],"v":1.5}`, i, i)
		}, "]}")
	case "rootkeys":
		return list(`,`, func(i int) string { return fmt.Sprintf(`"x-%07d":{"v":[1,2,3],"s":"abc"}`, i) }, "}")
	case "dupkey":
		return list(`,"x":{`, func(int) string { return `"k":1` }, "}}")
	case "distinct":
		return list(`,"x":{`, func(i int) string { return fmt.Sprintf(`"k%d":1`, i) }, "}}")
	case "tiny":
		for range n {
			if _, err := fmt.Fprint(w, base+"}\n"); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("unknown -kind %q", kind)
}
