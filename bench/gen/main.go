// Command gen writes a synthetic plangate-gc input document with -n
// entries to stdout, for measuring the binary on inputs too big to commit.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/plangate-gc/plangate-gc/internal/synth"
)

func main() {
	n := flag.Int("n", 1000000, "number of inventory entries")
	flag.Parse()
	if err := synth.Inventory(os.Stdout, *n); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
