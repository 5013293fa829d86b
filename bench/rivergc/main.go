// Command rivergc measures river-gc against find(1) on generated River
// Review trees (bench/gctree), in the same run, alternating the programs:
//
//	go run ./bench/rivergc -n 10000,100000 -force 100000 -runs 3
//	go run ./bench/rivergc -src /work/main ...   # build river-gc from another checkout
//	go run ./bench/rivergc -before /tmp/base ... # layout rows: that build beside this one
//
// Rows it prints (medians of -runs runs after one untimed warm-up each):
//   - dry-run: `river-gc --now … --json --quiet` (stdout to /dev/null) ÷
//     `find DIR -type f -printf '%s %T@ %p\n' | LC_ALL=C sort`, with wall
//     time, peak RSS (GNU time) and CPU seconds; and two more floors: the
//     same find that also cats every *.json file (the reads river-gc makes
//     for metadata timestamps), and river-gc --timestamp mtime (which
//     reads no file, like find) ÷ find|sort;
//   - force: `river-gc --force` ÷ `find DIR -type f -delete`, each on a
//     fresh `cp -a` copy of the tree (the copy is not timed);
//   - hostile: river-gc with 1,000 and 100,000 `--exclude '**/**/**/a*b*c*'`
//     over 100 files of 30 segments under .river/tmp (absolute time);
//   - layouts (-layouts-fs tmpfs=/mnt/t,disk=/var/tmp): --force ÷ find
//     -type f -delete on issue 27's trees of empty files under .river/tmp
//     (-layouts: flat 1 × 30,000, grid 30 × 1,000, deep 50 chains × 20
//     levels × 30, wide 100 × 1,000, scope: 30,000 directly in
//     .river/tmp), all old or every third recent, on each file system;
//     in a mixed tree also ÷ bench/delfloor's protocol over the same
//     removed files (-list); the programs alternate on fresh cp -a
//     copies (with -before that build first), the median of the runs'
//     ratios.
//
// No test asserts a time; this is a report.
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
	"syscall"
	"time"

	"github.com/plangate-gc/plangate-gc/bench/internal/measure"
)

// gcFlags make every river-gc run deterministic: a pinned clock and an
// explicit policy (age 60 days; count and size limits out of the way, so
// about two thirds of a generated tree is old and removed).
var gcFlags = []string{"--now", "2025-11-29T00:00:00Z", "--retention-days", "60",
	"--max-entries", "1000000000", "--max-size-mb", "1000000"}

func main() {
	sizes := flag.String("n", "10000,100000", "comma-separated tree sizes (files) for the dry-run row")
	force := flag.Int("force", 100000, "tree size for the --force row (0: skip)")
	hostile := flag.String("hostile", "1000,10000,100000", "comma-separated --exclude copy counts (empty: skip)")
	runs := flag.Int("runs", 3, "timed runs per program and size (the median is reported)")
	src := flag.String("src", ".", "checkout to build river-gc from")
	before := flag.String("before", "", "checkout to build a second river-gc from, run beside the first in the layout rows (empty: none)")
	work := flag.String("work", "", "directory for trees (default: a temporary directory)")
	layoutsFS := flag.String("layouts-fs", "", "LABEL=DIR,…: the --force layout rows (all removed and mixed) on each DIR's file system (empty: skip)")
	layouts := flag.String("layouts", "flat,grid,deep,scope", "the layouts of -layouts-fs: flat, grid, deep, wide, scope")
	flag.Parse()
	b := &bench{runs: *runs, beforeSrc: *before}
	fsDirs, err := parseFS(*layoutsFS)
	if *layoutsFS == "" {
		fsDirs, err = nil, nil
	}
	if err == nil {
		err = b.main(*src, *work, *sizes, *force, *hostile, fsDirs, *layouts)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "rivergc:", err)
		os.Exit(1)
	}
}

type bench struct {
	runs     int
	dir, bin string
	gctree   string
	delfloor string // bench/delfloor, the layouts' floor
	// beforeSrc and beforeBin: the -before checkout and its river-gc.
	beforeSrc, beforeBin string
}

func (b *bench) main(src, work, sizes string, force int, hostile string, fsDirs [][2]string, layouts string) error {
	dir, err := os.MkdirTemp(work, "rivergc-bench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	b.dir, b.bin, b.gctree = dir, filepath.Join(dir, "river-gc"), filepath.Join(dir, "gctree")
	if err := build(src, "./cmd/river-gc", b.bin); err != nil {
		return err
	}
	if err := build(".", "./bench/gctree", b.gctree); err != nil {
		return err
	}
	b.delfloor = filepath.Join(dir, "delfloor")
	if err := build(".", "./bench/delfloor", b.delfloor); err != nil {
		return err
	}
	rev, _ := exec.Command("git", "-C", src, "rev-parse", "--short", "HEAD").Output()
	fmt.Printf("river-gc built from %s at %s\n\n", src, strings.TrimSpace(string(rev)))
	if b.beforeSrc != "" {
		b.beforeBin = filepath.Join(dir, "river-gc-before")
		if err := build(b.beforeSrc, "./cmd/river-gc", b.beforeBin); err != nil {
			return err
		}
		fmt.Printf("before: river-gc built from %s\n\n", b.beforeSrc)
	}
	if sizes != "" {
		fmt.Println("| files | removed | river-gc s | find\\|sort s | time ratio (goal ≤ 1.3) | river-gc peak RSS MB | RSS budget MB (300 B/file + 30 MB) | find\\|sort peak RSS MB | µs/file | CPU s, river-gc ÷ find\\|sort | find + cat *.json \\| sort s (river-gc ÷ it) | river-gc --timestamp mtime s (÷ find\\|sort) |")
		fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|")
		var growth []string
		prevN, prevT := 0, 0.0
		for _, s := range strings.Split(sizes, ",") {
			n, err := strconv.Atoi(s)
			if err != nil {
				return fmt.Errorf("-n: %w", err)
			}
			t, err := b.dryRun(n)
			if err != nil {
				return err
			}
			if prevN > 0 {
				growth = append(growth, fmt.Sprintf("%d→%d files: %.1f× work, %.1f× time", prevN, n, float64(n)/float64(prevN), t/prevT))
			}
			prevN, prevT = n, t
		}
		fmt.Println()
		if len(growth) > 0 {
			fmt.Println("Growth of the river-gc dry-run (goal: 10× work ≤ 12× time): " + strings.Join(growth, "; ") + ".")
			fmt.Println()
		}
	}
	if force > 0 {
		if err := b.force(force); err != nil {
			return err
		}
		fmt.Println()
	}
	if hostile != "" {
		if err := b.hostile(hostile); err != nil {
			return err
		}
		fmt.Println()
	}
	if len(fsDirs) > 0 {
		return b.forceLayouts(fsDirs, layouts)
	}
	return nil
}

func build(dir, pkg, out string) error {
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	cmd := exec.Command("go", "build", "-o", abs, pkg)
	cmd.Dir = dir
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building %s in %s: %v\n%s", pkg, dir, err, msg)
	}
	return nil
}

// tree generates a tree of n files at path.
func (b *bench) tree(path string, n int) error {
	if msg, err := exec.Command(b.gctree, "-n", strconv.Itoa(n), "-dir", path).CombinedOutput(); err != nil {
		return fmt.Errorf("gctree: %v\n%s", err, msg)
	}
	return nil
}

// dryRun prints one dry-run row and returns river-gc's median time.
func (b *bench) dryRun(n int) (float64, error) {
	root := filepath.Join(b.dir, fmt.Sprintf("tree-%d", n))
	if err := b.tree(root, n); err != nil {
		return 0, err
	}
	defer os.RemoveAll(root)
	files := countFiles(root)
	gc := append([]string{b.bin, "--root", root, "--json", "--quiet"}, gcFlags...)
	find := []string{"sh", "-c", `find "$1" -type f -printf '%s %T@ %p\n' | LC_ALL=C sort`, "sh", root}
	// The same, plus reading every *.json file (cat, in batches): the
	// input river-gc reads for metadata timestamps that find never does.
	findCat := []string{"sh", "-c", `find "$1" -type f -printf '%s %T@ %p\n' -name '*.json' -exec sh -c 'exec cat "$@" >/dev/null' sh {} + | LC_ALL=C sort`, "sh", root}
	// river-gc judging by mtime only: the same file-system work as find.
	gcMtime := append(slices.Clone(gc), "--timestamp", "mtime")
	removed, err := removedCount(gc)
	if err != nil {
		return 0, err
	}
	var tg, tf, tc, tm, rg, rf, cg, cf []float64
	for i := -1; i < b.runs; i++ { // i == -1: warm-up, not recorded
		t, r, c, err := run(gc)
		if err != nil {
			return 0, err
		}
		t2, r2, c2, err := run(find)
		if err != nil {
			return 0, err
		}
		t3, _, _, err := run(findCat)
		if err != nil {
			return 0, err
		}
		t4, _, _, err := run(gcMtime)
		if err != nil {
			return 0, err
		}
		if i >= 0 {
			tg, rg, tf, rf, tc, tm = append(tg, t), append(rg, r), append(tf, t2), append(rf, r2), append(tc, t3), append(tm, t4)
			cg, cf = append(cg, c), append(cf, c2)
		}
	}
	fmt.Printf("| %d | %d | %.3f | %.3f | %.2f | %.1f | %.1f | %.1f | %.2f | %.2f ÷ %.2f | %.3f (%.2f) | %.3f (%.2f) |\n", files, removed, measure.Median(tg), measure.Median(tf), measure.Median(tg)/measure.Median(tf),
		measure.Median(rg)/1e6, (300*float64(files)+30e6)/1e6, measure.Median(rf)/1e6, measure.Median(tg)/float64(files)*1e6, measure.Median(cg), measure.Median(cf),
		measure.Median(tc), measure.Median(tg)/measure.Median(tc), measure.Median(tm), measure.Median(tm)/measure.Median(tf))
	return measure.Median(tg), nil
}

// force times river-gc --force and find -delete, each on a fresh copy of
// one generated tree; copying is not timed.
func (b *bench) force(n int) error {
	pristine := filepath.Join(b.dir, "pristine")
	if err := b.tree(pristine, n); err != nil {
		return err
	}
	defer os.RemoveAll(pristine)
	files := countFiles(pristine)
	copyTo := filepath.Join(b.dir, "victim")
	fresh := func() error {
		if err := os.RemoveAll(copyTo); err != nil {
			return err
		}
		if msg, err := exec.Command("cp", "-a", pristine, copyTo).CombinedOutput(); err != nil {
			return fmt.Errorf("cp -a: %v\n%s", err, msg)
		}
		return nil
	}
	defer os.RemoveAll(copyTo)
	gc := append([]string{b.bin, "--root", copyTo, "--force", "--json", "--quiet"}, gcFlags...)
	find := []string{"find", copyTo, "-type", "f", "-delete"}
	var tg, tf, rg []float64
	removed := 0
	for range b.runs {
		if err := fresh(); err != nil {
			return err
		}
		t, r, _, err := run(gc)
		if err != nil {
			return err
		}
		removed = files - countFiles(copyTo)
		if err := fresh(); err != nil {
			return err
		}
		t2, _, _, err := run(find)
		if err != nil {
			return err
		}
		tg, rg, tf = append(tg, t), append(rg, r), append(tf, t2)
	}
	fmt.Println("| files | river-gc --force deletes | find -delete deletes | river-gc s | find s | time ratio (goal ≤ 1.5) | µs per deleted file, river-gc ÷ find | river-gc peak RSS MB |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	fmt.Printf("| %d | %d | %d | %.3f | %.3f | %.2f | %.2f | %.1f |\n", files, removed, files, measure.Median(tg), measure.Median(tf), measure.Median(tg)/measure.Median(tf),
		(measure.Median(tg)/float64(removed))/(measure.Median(tf)/float64(files)), measure.Median(rg)/1e6)
	return nil
}

// hostileLimit bounds one hostile run at its goal: a run past it has
// missed, and is stopped before it exhausts the machine's memory (the
// command-line parse of 30,000 flags reached 18 GB in 30 s).
const hostileLimit = 10 * time.Second

// hostile runs river-gc with k copies of a pathological exclude over 100
// files of 30 path segments under .river/tmp.
func (b *bench) hostile(counts string) error {
	root := filepath.Join(b.dir, "hostile")
	for i := range 100 {
		segs := make([]string, 28)
		for j := range segs {
			segs[j] = fmt.Sprintf("aab%d", (i+j)%10)
		}
		p := filepath.Join(root, ".river", "tmp", filepath.Join(segs...), fmt.Sprintf("aab%d.tmp", i%10))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			return err
		}
	}
	defer os.RemoveAll(root)
	// 100,000 arguments need about 2.6 MB, over the default ARG_MAX
	// (a quarter of an 8 MB stack limit): raise the stack limit, which
	// children inherit, so the kernel accepts the argument list.
	lim := syscall.Rlimit{Cur: 256 << 20, Max: 256 << 20}
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_STACK, &old); err == nil && old.Max < lim.Max {
		lim = syscall.Rlimit{Cur: old.Max, Max: old.Max}
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_STACK, &lim); err != nil {
		return fmt.Errorf("raising RLIMIT_STACK: %w", err)
	}
	fmt.Println("| --exclude copies | files (30 segments) | river-gc s (goal ≤ 10 s at 100k) | peak RSS MB |")
	fmt.Println("|---|---|---|---|")
	for _, s := range strings.Split(counts, ",") {
		k, err := strconv.Atoi(s)
		if err != nil {
			return fmt.Errorf("-hostile: %w", err)
		}
		args := append([]string{b.bin, "--root", root, "--json", "--quiet"}, gcFlags...)
		for range k {
			args = append(args, "--exclude", "**/**/**/a*b*c*")
		}
		var ts, rs []float64
		for range b.runs {
			res, err := measure.Run(args, measure.Options{Limit: hostileLimit})
			if err != nil {
				return fmt.Errorf("%d excludes: %w", k, err)
			}
			if res.Killed {
				fmt.Printf("| %d | 100 | killed after %.0f s (not finished) | %.1f at the kill |\n", k, res.Wall, res.RSS/1e6)
				ts = nil
				break
			}
			ts, rs = append(ts, res.Wall), append(rs, res.RSS)
		}
		if ts != nil {
			fmt.Printf("| %d | 100 | %.3f | %.1f |\n", k, measure.Median(ts), measure.Median(rs)/1e6)
		}
	}
	return nil
}
