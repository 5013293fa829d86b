package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/plangate-gc/plangate-gc/bench/internal/measure"
)

// A layout is one shape of .river/tmp for the --force rows: the files of
// issue 27's deletion benchmark, empty, each old enough to be removed
// (all) or, in a mixed tree, every third one recent enough to stay.
type layout struct {
	name string
	// paths lists the files, root-relative, in creation order.
	paths func() []string
}

// deleteLayouts are issue 27's: flat (1 directory × 30,000 files), grid
// (30 × 1,000), deep (50 chains of 20 nested directories, 30 files at
// every level) and wide (100 × 1,000, the disk tree); and scope
// (30,000 files directly in .river/tmp, as River Review's tmp files lie:
// issue 38).
var deleteLayouts = []layout{
	{"scope", func() []string {
		ps := make([]string, 30000)
		for f := range ps {
			ps[f] = fmt.Sprintf(".river/tmp/f-%05d.tmp", f)
		}
		return ps
	}},
	{"wide", func() []string { return grid(100, 1000) }},
	{"flat", func() []string { return grid(1, 30000) }},
	{"grid", func() []string { return grid(30, 1000) }},
	{"deep", func() []string {
		var ps []string
		for c := range 50 {
			dir := fmt.Sprintf(".river/tmp/chain-%02d", c)
			for l := range 20 {
				dir += fmt.Sprintf("/level-%02d", l)
				for f := range 30 {
					ps = append(ps, fmt.Sprintf("%s/f-%02d.tmp", dir, f))
				}
			}
		}
		return ps
	}},
}

// grid is dirs directories of files files each under .river/tmp.
func grid(dirs, files int) []string {
	var ps []string
	for d := range dirs {
		for f := range files {
			ps = append(ps, fmt.Sprintf(".river/tmp/dir-%02d/f-%05d.tmp", d, f))
		}
	}
	return ps
}

// Times the layouts' files get: gcFlags's clock is 2025-11-29 with 60
// days of retention.
var (
	oldTime    = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	recentTime = time.Date(2025, 11, 28, 0, 0, 0, 0, time.UTC)
)

// writeLayout creates the layout's files below root; in a mixed tree
// every third file is recent. It returns the files river-gc removes,
// sorted.
func writeLayout(root string, l layout, mixed bool) ([]string, error) {
	var removed []string
	made := map[string]bool{}
	for i, p := range l.paths() {
		full := filepath.Join(root, p)
		if d := filepath.Dir(full); !made[d] {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return nil, err
			}
			made[d] = true
		}
		if err := os.WriteFile(full, nil, 0o644); err != nil {
			return nil, err
		}
		t := oldTime
		if mixed && i%3 == 2 {
			t = recentTime
		} else {
			removed = append(removed, p)
		}
		if err := os.Chtimes(full, t, t); err != nil {
			return nil, err
		}
	}
	slices.Sort(removed)
	return removed, nil
}

// forceLayouts prints one row per file system, layout and tree kind:
// river-gc --force ÷ find -type f -delete, and in a mixed tree also ÷
// bench/delfloor's protocol over the same removed files (the floor of
// SPEC B2's checks, SPEC P3); medians of runs alternating the programs
// (the -before build first), each run on a fresh cp -a of the pristine
// tree (not timed). fsDirs maps a file-system label to a directory on it.
func (b *bench) forceLayouts(fsDirs [][2]string, names string) error {
	fmt.Println("| file system | layout | tree | files | river-gc deletes | before s | after s | find -delete s | floor s | before ÷ find | after ÷ find | before ÷ floor | after ÷ floor | CPU s before, after, find, floor | CPU before ÷ find | CPU after ÷ find | CPU before ÷ floor | CPU after ÷ floor | load average (1 min), start–end |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, fsd := range fsDirs {
		for _, l := range deleteLayouts {
			if !slices.Contains(strings.Split(names, ","), l.name) {
				continue
			}
			for _, mixed := range []bool{false, true} {
				if err := b.forceLayout(fsd[0], fsd[1], l, mixed); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// timings are one program's wall and CPU seconds over the timed runs,
// and its wall time ÷ find's and ÷ the floor's in each run.
type timings struct{ wall, cpu, toFind, toFloor []float64 }

// A program of a layout row: its command line, and whether it deletes
// exactly river-gc's removals (find deletes every file).
type program struct {
	name      string
	argv      []string
	asRiverGC bool
}

func (b *bench) forceLayout(label, dir string, l layout, mixed bool) error {
	work, err := os.MkdirTemp(dir, "rivergc-layout")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	pristine, victim := filepath.Join(work, "pristine"), filepath.Join(work, "victim")
	want, err := writeLayout(pristine, l, mixed)
	if err != nil {
		return err
	}
	list := filepath.Join(work, "removed")
	if err := os.WriteFile(list, []byte(strings.Join(want, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	files := countFiles(pristine)
	fresh := func() error {
		if err := os.RemoveAll(victim); err != nil {
			return err
		}
		if msg, err := exec.Command("cp", "-a", pristine, victim).CombinedOutput(); err != nil {
			return fmt.Errorf("cp -a: %v\n%s", err, msg)
		}
		exec.Command("sync").Run() // the copy's writeback is not the next run's cost
		return nil
	}
	defer os.RemoveAll(victim)
	gcOf := func(bin string) []string {
		return append([]string{bin, "--root", victim, "--force", "--json", "--quiet"}, gcFlags...)
	}
	var progs []program
	if b.beforeBin != "" {
		progs = append(progs, program{"before", gcOf(b.beforeBin), true})
	}
	progs = append(progs, program{"after", gcOf(b.bin), true})
	if mixed {
		// river-gc's worker count on this machine (2 × GOMAXPROCS, at most 8).
		w := strconv.Itoa(min(2*runtime.NumCPU(), 8))
		progs = append(progs, program{"floor", []string{b.delfloor, "-root", victim, "-list", list, "-w", w}, true})
	}
	progs = append(progs, program{"find", []string{"find", victim, "-type", "f", "-delete"}, false})
	load := loadAverage()
	got := map[string]*timings{}
	for _, p := range progs {
		got[p.name] = &timings{}
	}
	for i := -1; i < b.runs; i++ { // i == -1: warm-up, not recorded
		rs := map[string]measure.Result{}
		for _, p := range progs {
			if err := fresh(); err != nil {
				return err
			}
			r, err := measure.Run(p.argv, measure.Options{})
			if err != nil {
				return err
			}
			if n := files - countFiles(victim); p.asRiverGC && n != len(want) {
				return fmt.Errorf("%s %s: %s deleted %d files, want %d", label, l.name, p.name, n, len(want))
			}
			rs[p.name] = r
		}
		if i < 0 {
			continue
		}
		for name, r := range rs {
			g := got[name]
			g.wall, g.cpu = append(g.wall, r.Wall), append(g.cpu, r.CPU)
			g.toFind = append(g.toFind, r.Wall/rs["find"].Wall)
			if fl, ok := rs["floor"]; ok {
				g.toFloor = append(g.toFloor, r.Wall/fl.Wall)
			}
		}
	}
	kind := "all removed"
	if mixed {
		kind = "mixed (a third stays)"
	}
	printLayoutRow(label, l.name, kind, files, len(want), got, load)
	return nil
}

// printLayoutRow prints one layout's row of medians; load is the load
// average when the row began.
func printLayoutRow(label, name, kind string, files, removed int, got map[string]*timings, load string) {
	// cell formats one median, "–" for a program that did not run.
	cell := func(name string, f func(*timings) []float64, format string) string {
		g, ok := got[name]
		if !ok || len(f(g)) == 0 {
			return "–"
		}
		return fmt.Sprintf(format, measure.Median(f(g)))
	}
	cpuRatio := func(a, of string) string {
		ga, oka := got[a]
		gb, okb := got[of]
		if !oka || !okb {
			return "–"
		}
		return fmt.Sprintf("%.2f", measure.Median(ga.cpu)/measure.Median(gb.cpu))
	}
	wall := func(g *timings) []float64 { return g.wall }
	cpus := []string{}
	for _, name := range []string{"before", "after", "find", "floor"} {
		cpus = append(cpus, cell(name, func(g *timings) []float64 { return g.cpu }, "%.2f"))
	}
	fmt.Printf("| %s | %s | %s | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", label, name, kind, files, removed,
		cell("before", wall, "%.3f"), cell("after", wall, "%.3f"), cell("find", wall, "%.3f"), cell("floor", wall, "%.3f"),
		cell("before", func(g *timings) []float64 { return g.toFind }, "%.2f"), cell("after", func(g *timings) []float64 { return g.toFind }, "%.2f"),
		cell("before", func(g *timings) []float64 { return g.toFloor }, "%.2f"), cell("after", func(g *timings) []float64 { return g.toFloor }, "%.2f"),
		strings.Join(cpus, ", "), cpuRatio("before", "find"), cpuRatio("after", "find"), cpuRatio("before", "floor"), cpuRatio("after", "floor"),
		load+"–"+loadAverage())
}

// loadAverage is the first field of /proc/loadavg ("?" when unreadable):
// on a shared machine the wall times mean little without it.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}

// parseFS reads -layouts-fs: LABEL=DIR pairs, comma-separated.
func parseFS(s string) ([][2]string, error) {
	var out [][2]string
	for _, kv := range strings.Split(s, ",") {
		label, dir, ok := strings.Cut(kv, "=")
		if !ok || label == "" || dir == "" {
			return nil, fmt.Errorf("-layouts-fs: want LABEL=DIR, got %q", kv)
		}
		out = append(out, [2]string{label, dir})
	}
	return out, nil
}
