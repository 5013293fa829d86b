// Command ratio measures plangate-gc --json against bench/baseline (an
// encoding/json typed decode of the same bytes, in its own binary) on
// generated inventories, and prints per size the median wall-time ratio
// and each program's median peak RSS as a multiple of the input size.
//
//	go run ./bench/ratio -n 10000,100000,1000000 -runs 3
//
// Runs alternate between the two programs so that a noisy machine moves
// both. No test asserts a time; this is a report.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/plangate-gc/plangate-gc/internal/synth"

	"github.com/plangate-gc/plangate-gc/bench/internal/measure"
)

func main() {
	sizes := flag.String("n", "10000,100000,1000000", "comma-separated entry counts")
	runs := flag.Int("runs", 3, "runs per program and size (the median is reported)")
	flag.Parse()
	if err := compare(*sizes, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "ratio:", err)
		os.Exit(1)
	}
}

// compare generates a document per size, runs both binaries on it
// alternately and prints the medians and their ratios.
func compare(sizes string, runs int) error {
	dir, err := os.MkdirTemp("", "plangate-ratio")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	ours, base := filepath.Join(dir, "plangate-gc"), filepath.Join(dir, "baseline")
	for bin, pkg := range map[string]string{ours: "./cmd/plangate-gc", base: "./bench/baseline"} {
		if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
			return fmt.Errorf("building %s: %v\n%s", pkg, err, out)
		}
	}
	fmt.Println("| entries | input MB | ours s | baseline s | time ours ÷ baseline | peak RSS ours ÷ input | peak RSS baseline ÷ input |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for _, s := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(s)
		if err != nil {
			return fmt.Errorf("-n: %w", err)
		}
		doc := filepath.Join(dir, "doc.json")
		f, err := os.Create(doc)
		if err != nil {
			return err
		}
		if err := synth.Inventory(f, n); err != nil {
			return err
		}
		st, _ := f.Stat()
		f.Close()
		var tOurs, tBase, rOurs, rBase []float64
		for range runs {
			t, r, err := once(doc, ours, "--json")
			if err != nil {
				return err
			}
			tOurs, rOurs = append(tOurs, t), append(rOurs, r)
			if t, r, err = once(doc, base); err != nil {
				return err
			}
			tBase, rBase = append(tBase, t), append(rBase, r)
		}
		in := float64(st.Size())
		fmt.Printf("| %d | %.1f | %.3f | %.3f | %.2f | %.2f | %.2f |\n", n, in/1e6, measure.Median(tOurs), measure.Median(tBase), measure.Median(tOurs)/measure.Median(tBase),
			measure.Median(rOurs)/in, measure.Median(rBase)/in)
	}
	return nil
}

// once runs bin with the document on stdin and returns its wall time in
// seconds and its peak RSS in bytes.
func once(doc, bin string, args ...string) (float64, float64, error) {
	in, err := os.Open(doc)
	if err != nil {
		return 0, 0, err
	}
	defer in.Close()
	r, err := measure.Run(append([]string{bin}, args...), measure.Options{Stdin: in})
	return r.Wall, r.RSS, err
}
