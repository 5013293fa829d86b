//go:build linux

// Command delfloor measures the system calls of river gc's deletion
// protocol alone, without river gc: no scan, no judgement, no journal, no
// Go string conversion (names prebuilt, raw unix.Syscall6), so that the
// cost of each call per file can be set against find -delete's one
// unlinkat (decision 258):
//
//	go run ./bench/delfloor -dir /mnt/perftmpfs/floor -n 30000 -w 1 -runs 3
//
// Each run creates n empty files in one new directory (not timed), then
// times each mode over them with w workers taking chunks of 256 files:
//   - unlink: unlinkat (find -delete's work);
//   - statx-unlink: statx, unlinkat;
//   - rename-unlink: renameat2(RENAME_NOREPLACE) to the private name,
//     unlinkat of it;
//   - protocol: statx, renameat2, statx, unlinkat (SPEC B2's).
//
// It prints wall and CPU (getrusage, user + system) seconds per mode,
// the medians of the runs, and µs of CPU per file. No check of the
// results is made beyond the calls' errors: this is a floor, not river gc.
//
// With -list FILE -root DIR it runs the protocol once over the files FILE
// names (root-relative, one a line, sorted) in their own directories, with
// w workers taking runs of at most 256 files of one directory, the k-th
// run of every directory before the (k+1)-th of any (as river gc's
// workers do), and prints nothing: bench/rivergc times this process as
// the floor of a --force run that removes those files (SPEC P3).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

var modes = []string{"unlink", "statx-unlink", "rename-unlink", "protocol"}

func main() {
	dir := flag.String("dir", "", "directory to create the files in (a new subdirectory per run)")
	n := flag.Int("n", 30000, "files per run")
	workers := flag.Int("w", 1, "workers")
	runs := flag.Int("runs", 3, "runs per mode (the median is printed)")
	list := flag.String("list", "", "file of root-relative paths: run the protocol over them once (with -root)")
	root := flag.String("root", "", "the directory -list's paths are relative to")
	flag.Parse()
	if *list != "" {
		if err := protocolOver(*root, *list, *workers); err != nil {
			fmt.Fprintln(os.Stderr, "delfloor:", err)
			os.Exit(1)
		}
		return
	}
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "delfloor: -dir is required")
		os.Exit(2)
	}
	fmt.Printf("| mode | files | workers | wall s | CPU s | CPU µs a file |\n|---|---|---|---|---|---|\n")
	for _, m := range modes {
		var walls, cpus []float64
		for range *runs {
			w, c, err := run(*dir, m, *n, *workers)
			if err != nil {
				fmt.Fprintln(os.Stderr, "delfloor:", err)
				os.Exit(1)
			}
			walls, cpus = append(walls, w), append(cpus, c)
		}
		slices.Sort(walls)
		slices.Sort(cpus)
		w, c := walls[len(walls)/2], cpus[len(cpus)/2]
		fmt.Printf("| %s | %d | %d | %.3f | %.3f | %.1f |\n", m, *n, *workers, w, c, c/float64(*n)*1e6)
	}
}

// cstr is s with a NUL, as the kernel takes a name.
func cstr(s string) []byte { return append([]byte(s), 0) }

// run creates the files, then times mode over them; it returns wall and
// CPU seconds.
func run(parent, mode string, n, workers int) (float64, float64, error) {
	dir, err := os.MkdirTemp(parent, "delfloor")
	if err != nil {
		return 0, 0, err
	}
	defer os.RemoveAll(dir)
	names, privs := make([][]byte, n), make([][]byte, n)
	for i := range n {
		name := fmt.Sprintf("f-%06d.tmp", i)
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			return 0, 0, err
		}
		names[i], privs[i] = cstr(name), cstr(".river-gc-deleting."+name)
	}
	dfd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0, 0, err
	}
	defer unix.Close(dfd)
	var ru0, ru1 unix.Rusage
	unix.Getrusage(unix.RUSAGE_SELF, &ru0)
	start := time.Now()
	var next atomic.Int64
	var firstErr atomic.Value
	var wg sync.WaitGroup
	const chunk = 256
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var stx unix.Statx_t
			for {
				lo := int(next.Add(chunk)) - chunk
				if lo >= n {
					return
				}
				for i := lo; i < min(lo+chunk, n); i++ {
					if err := one(dfd, mode, &names[i][0], &privs[i][0], &stx); err != nil {
						firstErr.CompareAndSwap(nil, err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	wall := time.Since(start).Seconds()
	unix.Getrusage(unix.RUSAGE_SELF, &ru1)
	cpu := float64(ru1.Utime.Nano()+ru1.Stime.Nano()-ru0.Utime.Nano()-ru0.Stime.Nano()) / 1e9
	if err, ok := firstErr.Load().(error); ok {
		return 0, 0, fmt.Errorf("%s: %w", mode, err)
	}
	return wall, cpu, nil
}

// protocolOver runs the four calls over the files the list names below
// root, one descriptor per directory, with w workers.
func protocolOver(root, list string, workers int) error {
	b, err := os.ReadFile(list)
	if err != nil {
		return err
	}
	type run struct{ dfd, lo, hi int }
	var names, privs [][]byte
	var groups [][]run // the runs of one directory, in path order
	at := map[string]int{}
	for _, p := range strings.Fields(string(b)) {
		dir, name := filepath.Split(p)
		g, ok := at[dir]
		if !ok {
			dfd, err := unix.Open(filepath.Join(root, dir), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
			if err != nil {
				return err
			}
			defer unix.Close(dfd)
			g, at[dir] = len(groups), len(groups)
			groups = append(groups, []run{{dfd, len(names), len(names)}})
		}
		rs := groups[g]
		if last := &rs[len(rs)-1]; last.hi == len(names) && last.hi-last.lo < 256 {
			last.hi++
		} else {
			groups[g] = append(rs, run{last.dfd, len(names), len(names) + 1})
		}
		names, privs = append(names, cstr(name)), append(privs, cstr(".river-gc-deleting."+name))
	}
	var runs []run
	for k, more := 0, true; more; k++ {
		more = false
		for _, g := range groups {
			more = more || k+1 < len(g)
			if k < len(g) {
				runs = append(runs, g[k])
			}
		}
	}
	var next atomic.Int64
	var firstErr atomic.Value
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var stx unix.Statx_t
			for k := int(next.Add(1)) - 1; k < len(runs); k = int(next.Add(1)) - 1 {
				for i := runs[k].lo; i < runs[k].hi; i++ {
					if err := one(runs[k].dfd, "protocol", &names[i][0], &privs[i][0], &stx); err != nil {
						firstErr.CompareAndSwap(nil, fmt.Errorf("%s: %w", names[i], err))
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	if err, ok := firstErr.Load().(error); ok {
		return err
	}
	return nil
}

// one runs mode's calls for one file.
func one(dfd int, mode string, name, priv *byte, stx *unix.Statx_t) error {
	statx := func(p *byte) error {
		return call(unix.SYS_STATX, uintptr(dfd), uintptr(unsafe.Pointer(p)), unix.AT_SYMLINK_NOFOLLOW|unix.AT_STATX_SYNC_AS_STAT,
			unix.STATX_BASIC_STATS|unix.STATX_MNT_ID, uintptr(unsafe.Pointer(stx)))
	}
	unlink := func(p *byte) error { return call(unix.SYS_UNLINKAT, uintptr(dfd), uintptr(unsafe.Pointer(p)), 0, 0, 0) }
	rename := func() error {
		return call(unix.SYS_RENAMEAT2, uintptr(dfd), uintptr(unsafe.Pointer(name)), uintptr(dfd), uintptr(unsafe.Pointer(priv)), unix.RENAME_NOREPLACE)
	}
	var steps []func() error
	switch mode {
	case "unlink":
		steps = []func() error{func() error { return unlink(name) }}
	case "statx-unlink":
		steps = []func() error{func() error { return statx(name) }, func() error { return unlink(name) }}
	case "rename-unlink":
		steps = []func() error{rename, func() error { return unlink(priv) }}
	default:
		steps = []func() error{func() error { return statx(name) }, rename, func() error { return statx(priv) }, func() error { return unlink(priv) }}
	}
	for _, s := range steps {
		if err := s(); err != nil {
			return err
		}
	}
	return nil
}

// call is one system call; its errno, nil for 0.
func call(trap, a1, a2, a3, a4, a5 uintptr) error {
	if _, _, e := unix.Syscall6(trap, a1, a2, a3, a4, a5, 0); e != 0 {
		return e
	}
	return nil
}
