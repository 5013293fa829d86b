// Command gctree writes a River Review tree of about n files for the
// river-gc benchmarks (bench/rivergc):
//
//	go run ./bench/gctree -n 100000 -dir /tmp/tree
//
// The mix follows real runs: 40% .river/memory/<topic>/*.json entries with
// a metadata.createdAt timestamp (200 per directory), 35% eval runs
// (artifacts/evals/run-N/ with result.json, stdout.log, stderr.log and
// logs/trace-{1,2}.log), 15% artifacts/review-artifact-N.json with a
// top-level timestamp (one flat directory, as the reviewer writes them)
// and 10% .river/tmp/<job>/ scratch files. Timestamps and mtimes are spread
// deterministically over 2025-06-01 .. 2025-11-28, so with --now
// 2025-11-29 and --retention-days 60 about two thirds of the tree is old.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

func main() {
	n := flag.Int("n", 10000, "number of files (approximate: eval runs come in fives)")
	dir := flag.String("dir", "", "directory to create the tree in (must not exist)")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "gctree: -dir is required")
		os.Exit(2)
	}
	if err := generate(*dir, *n); err != nil {
		fmt.Fprintln(os.Stderr, "gctree:", err)
		os.Exit(1)
	}
}

var (
	start = time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	span  = int64(180 * 24 * 3600) // seconds, to 2025-11-28
)

// when returns the deterministic timestamp of file i: a multiplicative
// hash spreads neighbours over the whole span.
func when(i int) time.Time {
	h := uint64(i)*0x9E3779B97F4A7C15 + 0x632BE59BD9B4E5F5
	return start.Add(time.Duration(int64(h>>1)%span) * time.Second)
}

type gen struct {
	root string
	made map[string]bool
}

func (g *gen) write(rel string, body []byte, t time.Time) error {
	p := filepath.Join(g.root, rel)
	d := filepath.Dir(p)
	if !g.made[d] {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		g.made[d] = true
	}
	if err := os.WriteFile(p, body, 0o644); err != nil {
		return err
	}
	return os.Chtimes(p, t, t)
}

func generate(root string, n int) error {
	if _, err := os.Lstat(root); err == nil {
		return fmt.Errorf("%s exists", root)
	}
	g := &gen{root: root, made: map[string]bool{}}
	memory, evals, reviews := n*40/100, n*35/100/5, n*15/100
	tmp := n - memory - evals*5 - reviews
	for i := range memory {
		t := when(i)
		body := fmt.Sprintf(`{"id":"mem-%d","kind":"riverbed-entry","metadata":{"createdAt":%q,"tags":["review","memory"]},"body":{"text":"note %d"}}`+"\n",
			i, t.Format(time.RFC3339), i)
		if err := g.write(fmt.Sprintf(".river/memory/topic-%04d/entry-%07d.json", i/200, i), []byte(body), t); err != nil {
			return err
		}
	}
	log := []byte("step 1 ok\nstep 2 ok\nstep 3 ok\n")
	for i := range evals {
		t := when(memory + i)
		run := fmt.Sprintf("artifacts/evals/run-%07d/", i)
		res := fmt.Sprintf(`{"timestamp":%q,"suite":"review","passed":41,"failed":0}`+"\n", t.Format(time.RFC3339))
		for _, f := range []struct {
			name string
			body []byte
		}{{"result.json", []byte(res)}, {"stdout.log", log}, {"stderr.log", nil}, {"logs/trace-1.log", log}, {"logs/trace-2.log", log}} {
			if err := g.write(run+f.name, f.body, t); err != nil {
				return err
			}
		}
	}
	for i := range reviews {
		t := when(memory + evals + i)
		body := fmt.Sprintf(`{"timestamp":%q,"findings":[{"severity":"minor","message":"m%d"}]}`+"\n", t.Format(time.RFC3339), i)
		if err := g.write(fmt.Sprintf("artifacts/review-artifact-%07d.json", i), []byte(body), t); err != nil {
			return err
		}
	}
	for i := range tmp {
		t := when(memory + evals + reviews + i)
		if err := g.write(fmt.Sprintf(".river/tmp/job-%05d/part-%03d.tmp", i/50, i%50), log, t); err != nil {
			return err
		}
	}
	return nil
}
