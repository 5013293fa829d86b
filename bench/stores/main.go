// Command stores measures river-gc's entry scopes (memory-entries,
// eval-ledger) against Node reading the same store the way upstream does
// — JSON.parse, a filter, JSON.stringify (SPEC B6 "Entry scopes cost what
// the store costs") — in the same run, alternating the programs:
//
//	go run ./bench/stores -n 10000,100000,1000000 -runs 3
//	go run ./bench/stores -before /tmp/old-checkout ...  # also the "before" binary
//
// For each store, entry size (tiny, upstream-sized) and entry count it
// generates one store (gen.go) and runs, in rounds after one untimed
// warm-up: river-gc --scope S --quiet (dry-run, the default summary, or
// with -json every removal as JSON; stdout to /dev/null), Node, and with -before the other checkout's river-gc; then
// the same with --force (river-gc rewrites the store, Node writes its
// result over it), each on a fresh copy (the copy is not timed). A row
// reports the median of the per-round ratios river-gc ÷ Node (goal ≤ 1.5),
// river-gc's median peak RSS against the budget 2 × store + 200 B per
// entry (whole, and above the process's floor: decision 233), and the
// before binary's median ratio to Node in the same rounds.
//
// No test asserts a time; this is a report.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/plangate-gc/plangate-gc/bench/internal/measure"
)

// nodeScript is Node doing what upstream's readers and writer do with the
// store: readFileSync + JSON.parse (the index whole; the ledger per
// non-blank trimmed line, as compare-eval-ledger), keep the entries
// river-gc keeps under the same policy (live knowledge and entries not
// older than the cutoff; the ledger's newest two), JSON.stringify (the
// index as upstream's writer: null, 2, "\n"), and with "force" write it
// over the store.
const nodeScript = `
import fs from 'node:fs';
const [kind, file, mode, cutoff] = process.argv.slice(2);
const text = fs.readFileSync(file, 'utf-8');
let out;
if (kind === 'memory') {
  const index = JSON.parse(text);
  index.entries = index.entries.filter((e) => e.type === 'pattern' || !(e.metadata?.createdAt < cutoff));
  out = JSON.stringify(index, null, 2) + '\n';
} else {
  const lines = [];
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (t) lines.push(JSON.parse(t));
  }
  out = lines.filter((e, i) => i >= lines.length - 2 || !(e.timestamp < cutoff)).map((e) => JSON.stringify(e) + '\n').join('');
}
if (mode === 'force') fs.writeFileSync(file, out);
`

// gcFlags pin the clock and the policy: age 60 days, count and size
// limits out of the way.
var gcFlags = []string{"--now", benchNow, "--retention-days", "60", "--max-entries", "1000000000", "--max-size-mb", "1000000", "--quiet"}

// nodeStringLimit is the longest string V8 makes (0x1fffffe8 UTF-16
// units): readFileSync of a larger store throws ERR_STRING_TOO_LONG, so
// upstream cannot read it at all and there is no Node time to compare
// with (nor a before: the rows then measure river-gc alone).
const nodeStringLimit = 0x1fffffe8

// cutoff is the age limit Node applies: --now minus 60 days.
const cutoff = "2025-09-30T00:00:00.000Z"

func main() {
	sizes := flag.String("n", "10000,100000,1000000", "comma-separated entry counts")
	runs := flag.Int("runs", 3, "timed rounds per row (medians are reported)")
	src := flag.String("src", ".", "checkout to build river-gc from")
	before := flag.String("before", "", "checkout to build the before river-gc from (empty: no before column)")
	kinds := flag.String("stores", "memory,ledger", "stores to measure")
	classes := flag.String("entries", "tiny,upstream", "entry sizes to measure (tiny, upstream; ones: every entry the non-object 1)")
	limit := flag.Duration("limit", 5*time.Minute, "a longer run is killed (reported as ≥ the limit)")
	work := flag.String("work", "", "directory for stores (default: a temporary directory)")
	asJSON := flag.Bool("json", false, "run river-gc with --json (every removal in the output) instead of its default summary")
	flag.Parse()
	if *asJSON {
		gcFlags = append(gcFlags, "--json")
	}
	if err := bench(*src, *before, *work, *sizes, *kinds, *classes, *runs, *limit); err != nil {
		fmt.Fprintln(os.Stderr, "stores:", err)
		os.Exit(1)
	}
}

// program is one measured command line, given the store's root and file.
type program func(root, file, mode string) []string

func bench(src, before, work, sizes, kinds, classes string, runs int, limit time.Duration) error {
	dir, err := os.MkdirTemp(work, "stores-bench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bin, old := filepath.Join(dir, "river-gc"), filepath.Join(dir, "river-gc-before")
	if err := build(src, bin); err != nil {
		return err
	}
	script := filepath.Join(dir, "baseline.mjs")
	if err := os.WriteFile(script, []byte(nodeScript), 0o644); err != nil {
		return err
	}
	progs := []program{gcProgram(bin), func(_, file, mode string) []string {
		return []string{"node", script, kindOf(file), file, mode, cutoff}
	}}
	fmt.Printf("river-gc built from %s at %s", src, revision(src))
	if before != "" {
		if err := build(before, old); err != nil {
			return err
		}
		progs = append(progs, gcProgram(old))
		fmt.Printf("; before: %s at %s", before, revision(before))
	}
	floor, err := rssFloor(dir, bin)
	if err != nil {
		return err
	}
	fmt.Printf("\n\nriver-gc's floor (peak RSS of a run without a store): %.1f MB\n\n", mb(floor))
	fmt.Println("| store | entries | size | mode | store MB | river-gc s | node s | wall ratio (goal ≤ 1.5) | CPU ratio | peak RSS MB | peak ÷ budget | above floor ÷ budget (goal ≤ 1) | budget MB | before s | before wall ratio | before CPU ratio | before RSS MB |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, kind := range strings.Split(kinds, ",") {
		for _, class := range strings.Split(classes, ",") {
			for _, f := range strings.Split(sizes, ",") {
				n, err := strconv.Atoi(f)
				if err != nil {
					return fmt.Errorf("-n %q: %w", f, err)
				}
				if err := row(dir, kind, class, n, runs, limit, floor, progs); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func gcProgram(bin string) program {
	return func(root, file, mode string) []string {
		scope := "memory-entries"
		if kindOf(file) == "ledger" {
			scope = "eval-ledger"
		}
		argv := append([]string{bin, "--root", root, "--scope", scope}, gcFlags...)
		if mode == "force" {
			argv = append(argv, "--force")
		}
		return argv
	}
}

func kindOf(file string) string {
	if strings.HasSuffix(file, ".jsonl") {
		return "ledger"
	}
	return "memory"
}

// row measures one store in both modes and prints two rows.
func row(dir, kind, class string, n, runs int, limit time.Duration, floor float64, progs []program) error {
	root := filepath.Join(dir, fmt.Sprintf("%s-%s-%d", kind, class, n))
	file, err := writeStore(root, kind, n, class)
	if err != nil {
		return err
	}
	pristine, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	defer os.RemoveAll(root)
	for _, mode := range []string{"dry-run", "force"} {
		walls := make([][]float64, len(progs))
		rss := make([][]float64, len(progs))
		ratios := make([][]float64, len(progs)) // per round, ÷ node
		cpus := make([][]float64, len(progs))   // per round, CPU ÷ node's
		for round := range runs + 1 {
			res := make([]measure.Result, len(progs))
			for k, p := range progs {
				if k > 0 && len(pristine) > nodeStringLimit {
					res[k].Wall, res[k].CPU = math.NaN(), math.NaN() // Node cannot read it: no ratio
					continue
				}
				if err := os.WriteFile(file, pristine, 0o644); err != nil { // a fresh copy, untimed
					return err
				}
				if res[k], err = measure.Run(p(root, file, mode), measure.Options{Limit: limit}); err != nil {
					return err
				}
			}
			if round == 0 {
				continue // warm-up
			}
			for k := range progs {
				walls[k] = append(walls[k], res[k].Wall)
				rss[k] = append(rss[k], res[k].RSS)
				ratios[k] = append(ratios[k], res[k].Wall/res[1].Wall)
				cpus[k] = append(cpus[k], res[k].CPU/res[1].CPU)
			}
		}
		budget := 2*float64(len(pristine)) + 200*float64(n)
		gcRSS := measure.Median(rss[0])
		fmt.Printf("| %s | %d | %s | %s | %.1f | %.3f | %.3f | %.2f | %.2f | %.1f | %.2f | %.2f | %.1f |", kind, n, class, mode, mb(float64(len(pristine))),
			measure.Median(walls[0]), measure.Median(walls[1]), measure.Median(ratios[0]), measure.Median(cpus[0]),
			mb(gcRSS), gcRSS/budget, (gcRSS-floor)/budget, mb(budget))
		if len(progs) > 2 {
			fmt.Printf(" %.3f | %.2f | %.2f | %.1f |\n", measure.Median(walls[2]), measure.Median(ratios[2]), measure.Median(cpus[2]), mb(measure.Median(rss[2])))
		} else {
			fmt.Println(" – | – | – | – |")
		}
	}
	return nil
}

// rssFloor is river-gc's median peak RSS over three runs on a root
// without a store: the process itself, which no store budget pays for.
func rssFloor(dir, bin string) (float64, error) {
	root := filepath.Join(dir, "empty")
	if err := os.MkdirAll(filepath.Join(root, ".river"), 0o755); err != nil {
		return 0, err
	}
	var rss []float64
	for range 3 {
		r, err := measure.Run(append([]string{bin, "--root", root, "--scope", "memory-entries"}, gcFlags...), measure.Options{})
		if err != nil {
			return 0, err
		}
		rss = append(rss, r.RSS)
	}
	return measure.Median(rss), nil
}

func mb(b float64) float64 { return b / (1 << 20) }

// build builds river-gc from the checkout src into out.
func build(src, out string) error {
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	cmd := exec.Command("go", "build", "-trimpath", "-o", abs, "./cmd/river-gc")
	cmd.Dir, cmd.Stdout, cmd.Stderr = src, os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building river-gc in %s: %w", src, err)
	}
	return nil
}

func revision(src string) string {
	rev, _ := exec.Command("git", "-C", src, "rev-parse", "--short", "HEAD").Output()
	return strings.TrimSpace(string(rev))
}
