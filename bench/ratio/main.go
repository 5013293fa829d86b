// Command ratio measures plangate-gc --json against bench/baseline (an
// encoding/json typed decode of the same bytes, in its own binary) on
// generated inventories, and prints per shape and size the median
// wall-time ratio, the median CPU-time (user + system) ratio and each
// program's median peak RSS as a multiple of the input size.
//
//	go run ./bench/ratio -n 100000,1000000 -shapes compact,fixture -runs 3
//
// The shapes are internal/synth's: compact and laid out like
// fixtures/*/input.json, each in path order and shuffled.
// Runs alternate between the two programs so that a noisy machine moves
// both. No test asserts a time; this is a report.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/plangate-gc/plangate-gc/internal/synth"

	"github.com/plangate-gc/plangate-gc/bench/internal/measure"
)

func main() {
	sizes := flag.String("n", "10000,100000,1000000", "comma-separated entry counts")
	runs := flag.Int("runs", 3, "runs per program and size (the median is reported)")
	shapes := flag.String("shapes", shapeNames(), "comma-separated shapes of internal/synth")
	flag.Parse()
	if err := compare(*sizes, *shapes, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "ratio:", err)
		os.Exit(1)
	}
}

func shapeNames() string {
	var names []string
	for _, s := range synth.Shapes {
		names = append(names, s.Name)
	}
	return strings.Join(names, ",")
}

// compare generates a document per shape and size, runs both binaries on
// it alternately and prints the medians and their ratios.
func compare(sizes, shapes string, runs int) error {
	var selected []synth.Shape
	for _, name := range strings.Split(shapes, ",") {
		i := slices.IndexFunc(synth.Shapes, func(s synth.Shape) bool { return s.Name == name })
		if i < 0 {
			return fmt.Errorf("-shapes: no shape %q (%s)", name, shapeNames())
		}
		selected = append(selected, synth.Shapes[i])
	}
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
	fmt.Println("| shape | entries | input MB | ours s | baseline s | time ours ÷ baseline | CPU ours ÷ baseline | peak RSS ours ÷ input | peak RSS baseline ÷ input |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for _, shape := range selected {
		for _, s := range strings.Split(sizes, ",") {
			if err := row(dir, ours, base, shape, s, runs); err != nil {
				return err
			}
		}
	}
	return nil
}

// row measures one shape and size: both binaries alternately, runs times.
func row(dir, ours, base string, shape synth.Shape, s string, runs int) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("-n: %w", err)
	}
	doc := filepath.Join(dir, "doc.json")
	f, err := os.Create(doc)
	if err != nil {
		return err
	}
	if err := synth.InventoryShape(f, n, shape); err != nil {
		return err
	}
	st, _ := f.Stat()
	f.Close()
	var tOurs, tBase, cOurs, cBase, rOurs, rBase []float64
	for range runs {
		r, err := once(doc, ours, "--json")
		if err != nil {
			return err
		}
		tOurs, cOurs, rOurs = append(tOurs, r.Wall), append(cOurs, r.CPU), append(rOurs, r.RSS)
		if r, err = once(doc, base); err != nil {
			return err
		}
		tBase, cBase, rBase = append(tBase, r.Wall), append(cBase, r.CPU), append(rBase, r.RSS)
	}
	in := float64(st.Size())
	med := measure.Median
	fmt.Printf("| %s | %d | %.1f | %.3f | %.3f | %.2f | %.2f | %.2f | %.2f |\n", shape.Name, n, in/1e6, med(tOurs), med(tBase),
		med(tOurs)/med(tBase), med(cOurs)/med(cBase), med(rOurs)/in, med(rBase)/in)
	return nil
}

// once runs bin with the document on stdin and returns its wall time,
// CPU time and peak RSS.
func once(doc, bin string, args ...string) (measure.Result, error) {
	in, err := os.Open(doc)
	if err != nil {
		return measure.Result{}, err
	}
	defer in.Close()
	return measure.Run(append([]string{bin}, args...), measure.Options{Stdin: in})
}
