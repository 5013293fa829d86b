package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
// every level) and wide (100 × 1,000, the disk tree).
var deleteLayouts = []layout{
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
// every third file is recent. It returns how many files river-gc removes.
func writeLayout(root string, l layout, mixed bool) (int, error) {
	removed := 0
	made := map[string]bool{}
	for i, p := range l.paths() {
		full := filepath.Join(root, p)
		if d := filepath.Dir(full); !made[d] {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return 0, err
			}
			made[d] = true
		}
		if err := os.WriteFile(full, nil, 0o644); err != nil {
			return 0, err
		}
		t := oldTime
		if mixed && i%3 == 2 {
			t = recentTime
		} else {
			removed++
		}
		if err := os.Chtimes(full, t, t); err != nil {
			return 0, err
		}
	}
	return removed, nil
}

// forceLayouts prints one row per file system, layout and tree kind:
// river-gc --force ÷ find -type f -delete, medians of runs alternating
// pairs (triples with -before: the before build first), each run on a
// fresh cp -a of the pristine tree (not timed). fsDirs maps a
// file-system label to a directory on it.
func (b *bench) forceLayouts(fsDirs [][2]string, names string) error {
	if b.beforeBin != "" {
		fmt.Println("| file system | layout | tree | files | river-gc deletes | before s | after s | find -delete s | before ÷ find (pairs' median) | after ÷ find | CPU s before, after, find | CPU before ÷ find | CPU after ÷ find | load average (1 min), start–end |")
		fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	} else {
		fmt.Println("| file system | layout | tree | files | river-gc deletes | river-gc s | find -delete s | time ratio, median of the pairs' (goal ≤ 1.5) | CPU s, river-gc ÷ find | CPU ratio |")
		fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
	}
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

// timings are one program's wall and CPU seconds over the timed runs.
type timings struct{ wall, cpu, pairs []float64 }

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
	progs := [][]string{gcOf(b.bin)}
	if b.beforeBin != "" {
		progs = [][]string{gcOf(b.beforeBin), gcOf(b.bin)}
	}
	progs = append(progs, []string{"find", victim, "-type", "f", "-delete"})
	load := loadAverage()
	got := make([]timings, len(progs))
	for i := -1; i < b.runs; i++ { // i == -1: warm-up, not recorded
		var rs []measure.Result
		for k, p := range progs {
			if err := fresh(); err != nil {
				return err
			}
			r, err := measure.Run(p, measure.Options{})
			if err != nil {
				return err
			}
			if n := files - countFiles(victim); k < len(progs)-1 && n != want {
				return fmt.Errorf("%s %s: river-gc deleted %d files, want %d", label, l.name, n, want)
			}
			rs = append(rs, r)
		}
		if i < 0 {
			continue
		}
		find := rs[len(rs)-1]
		for k, r := range rs {
			got[k].wall, got[k].cpu = append(got[k].wall, r.Wall), append(got[k].cpu, r.CPU)
			got[k].pairs = append(got[k].pairs, r.Wall/find.Wall)
		}
	}
	kind := "all removed"
	if mixed {
		kind = "mixed (a third stays)"
	}
	med := measure.Median
	f := got[len(got)-1]
	if b.beforeBin == "" {
		g := got[0]
		fmt.Printf("| %s | %s | %s | %d | %d | %.3f | %.3f | %.2f | %.3f ÷ %.3f | %.2f |\n", label, l.name, kind, files, want,
			med(g.wall), med(f.wall), med(g.pairs), med(g.cpu), med(f.cpu), med(g.cpu)/med(f.cpu))
		return nil
	}
	bf, af := got[0], got[1]
	fmt.Printf("| %s | %s | %s | %d | %d | %.3f | %.3f | %.3f | %.2f | %.2f | %.2f, %.2f, %.2f | %.2f | %.2f | %s |\n", label, l.name, kind, files, want,
		med(bf.wall), med(af.wall), med(f.wall), med(bf.pairs), med(af.pairs), med(bf.cpu), med(af.cpu), med(f.cpu),
		med(bf.cpu)/med(f.cpu), med(af.cpu)/med(f.cpu), load+"–"+loadAverage())
	return nil
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
