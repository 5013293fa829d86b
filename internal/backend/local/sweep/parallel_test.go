//go:build linux

package sweep

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/fserr"
)

// Tests of runs (one parent descriptor for the targets of a directory)
// and of the worker pool.

func TestRunsOf(t *testing.T) {
	var ts []Target
	add := func(p string, n int) {
		for range n {
			ts = append(ts, Target{Path: p})
		}
	}
	for i := range maxRun + 10 {
		add(fmt.Sprintf("big/f%04d", i), 1)
	}
	ts[maxRun].Path = ts[maxRun-1].Path // a duplicate across the cut
	add("big/sub/x", 1)
	add("top", 2)
	slices.SortStableFunc(ts, func(a, b Target) int { return cmpPath(a.Path, b.Path) })
	got := runsOf(ts)
	want := []span{{0, maxRun + 1}, {maxRun + 1, maxRun + 10}, {maxRun + 10, maxRun + 11}, {maxRun + 11, maxRun + 13}}
	if !slices.Equal(got, want) {
		t.Errorf("runs %v, want %v", got, want)
	}
}

// TestAcrossDirs: runs are handed out a directory's first run, then the
// next directory's, and every run exactly once.
func TestAcrossDirs(t *testing.T) {
	var ts []Target
	for _, d := range []string{"a", "b", "c"} {
		n := map[string]int{"a": 2*maxRun + 1, "b": 3, "c": maxRun + 1}[d]
		for i := range n {
			ts = append(ts, Target{Path: fmt.Sprintf("%s/f%04d", d, i)})
		}
	}
	runs := runsOf(ts)
	got := acrossDirs(ts, runs)
	a0, a1, a2 := runs[0], runs[1], runs[2]
	b0, c0, c1 := runs[3], runs[4], runs[5]
	want := []span{a0, b0, c0, a1, c1, a2}
	if !slices.Equal(got, want) {
		t.Errorf("acrossDirs %v, want %v (runs %v)", got, want, runs)
	}
}

func cmpPath(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestDeleteOneResolutionPerRun: the parent is resolved once per run of
// targets in one directory, and afresh after maxRun targets.
func TestDeleteOneResolutionPerRun(t *testing.T) {
	withResolver(t, func(t *testing.T) {
		sequential(t)
		root := t.TempDir()
		var targets []Target
		for _, p := range []string{"d/a", "d/b", "d/c", "e/x", "top"} {
			write(t, root, p, "x")
			targets = append(targets, target(t, root, p))
		}
		for i := range maxRun + 1 {
			p := fmt.Sprintf("big/f%04d", i)
			write(t, root, p, "x")
			targets = append(targets, target(t, root, p))
		}
		resolved := 0
		inner := testHookResolver
		testHookResolver = func(via string) { resolved++; inner(via) }
		rep := del(t, root, targets, Options{})
		if len(rep.Deleted) != len(targets) || rep.Errors != nil {
			t.Fatalf("got %+v", rep)
		}
		if resolved != 4 { // d, e, big twice; the root is never resolved
			t.Errorf("%d resolutions, want 4", resolved)
		}
	})
}

// TestDeleteDirectoryMovedMidRun: the directory of a run is moved away
// between two of its targets and its path now leads elsewhere (a new
// directory holding files of the same names, or a symlink to one outside
// the root). The path is never used again: what it leads to is never
// touched. The scanned files — same identity — are deleted where the
// directory now is (the residual window of the package comment).
func TestDeleteDirectoryMovedMidRun(t *testing.T) {
	for _, how := range []string{"new directory", "symlink"} {
		t.Run(how, func(t *testing.T) {
			withResolver(t, func(t *testing.T) {
				sequential(t)
				root, outside := t.TempDir(), t.TempDir()
				for _, p := range []string{"d/a", "d/b", "d/c"} {
					write(t, root, p, "scanned")
				}
				targets := []Target{target(t, root, "d/a"), target(t, root, "d/b"), target(t, root, "d/c")}
				decoy := root
				if how == "symlink" {
					decoy = outside
				}
				testHookBeforeResolve = func(p string) {
					if p != "d/b" {
						return
					}
					if err := os.Rename(filepath.Join(root, "d"), filepath.Join(root, "moved")); err != nil {
						t.Fatal(err)
					}
					// Same names, same size and mtime: only the inode differs.
					write(t, decoy, "d/b", "scanned")
					write(t, decoy, "d/c", "scanned")
					if how == "symlink" {
						if err := os.Symlink(filepath.Join(outside, "d"), filepath.Join(root, "d")); err != nil {
							t.Fatal(err)
						}
					}
				}
				rep := del(t, root, targets, Options{})
				if want := []string{"d/a", "d/b", "d/c"}; !slices.Equal(rep.Deleted, want) || rep.Errors != nil {
					t.Errorf("got %+v, want %q deleted", rep, want)
				}
				if !exists(decoy, "d/b") || !exists(decoy, "d/c") {
					t.Error("a file the old path now leads to was deleted")
				}
				if left, _ := os.ReadDir(filepath.Join(root, "moved")); len(left) != 0 {
					t.Errorf("the moved directory still holds %v", left)
				}
			})
		})
	}
}

// tree writes dirs × files files (plus one that will change and one that
// will vanish) and returns their targets.
func tree(t *testing.T, root string, dirs, files int) []Target {
	t.Helper()
	var targets []Target
	for d := range dirs {
		for f := range files {
			p := fmt.Sprintf("d%02d/f%04d", d, f)
			write(t, root, p, "x")
			targets = append(targets, target(t, root, p))
		}
	}
	write(t, root, "changes", "x")
	write(t, root, "d00/vanishes", "x")
	targets = append(targets, target(t, root, "changes"), target(t, root, "d00/vanishes"))
	write(t, root, "changes", "longer")
	if err := os.Remove(filepath.Join(root, "d00/vanishes")); err != nil {
		t.Fatal(err)
	}
	return targets
}

// TestDeleteParallel: several workers give the same report as one, and
// Progress counts 1, 2, … total on the caller's goroutine (the race
// detector would see concurrent calls: progress is appended unguarded).
func TestDeleteParallel(t *testing.T) {
	var reports []Report
	for _, workers := range []int{1, 2, 4} {
		testWorkers = workers
		t.Cleanup(func() { testWorkers = 0 })
		root := t.TempDir()
		targets := tree(t, root, 6, maxRun+20)
		var progress []int
		rep := del(t, root, targets, Options{Progress: func(done, total int) {
			if total != len(targets) {
				t.Errorf("total %d", total)
			}
			progress = append(progress, done)
		}})
		for i, done := range progress {
			if done != i+1 || len(progress) != len(targets) {
				t.Errorf("%d workers: progress call %d of %d says %d, want 1..%d", workers, i, len(progress), done, len(targets))
				break
			}
		}
		if len(rep.Deleted) != len(targets)-2 || !slices.IsSorted(rep.Deleted) {
			t.Errorf("%d workers: %d deleted", workers, len(rep.Deleted))
		}
		for _, p := range rep.Deleted {
			if exists(root, p) {
				t.Errorf("%s reported deleted but exists", p)
			}
		}
		checkErrors(t, rep.Errors, fserr.OpDelete, map[string]match{"changes": changedIn(fserr.FieldSize)})
		reports = append(reports, rep)
	}
	for i := range reports[1:] {
		if a, b := reports[0], reports[i+1]; !reflect.DeepEqual(a.Deleted, b.Deleted) || !reflect.DeepEqual(a.Gone, b.Gone) ||
			len(a.Errors) != len(b.Errors) || a.Errors[0].Error() != b.Errors[0].Error() {
			t.Errorf("reports differ between worker counts:\n%+v\n%+v", a, b)
		}
	}
}

// TestDeleteParallelCancelled: two workers each hold the first file of a
// run when the context is cancelled (a barrier in the hook makes sure both
// are in hand). Each finishes its file; nothing else is attempted; every
// target is accounted for exactly once; no private name is left.
func TestDeleteParallelCancelled(t *testing.T) {
	testWorkers = 2
	root := t.TempDir()
	var targets []Target
	for d := range 4 {
		for f := range 3 {
			p := fmt.Sprintf("d%d/f%d", d, f)
			write(t, root, p, "x")
			targets = append(targets, target(t, root, p))
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var both sync.WaitGroup
	both.Add(2)
	testHookAfterCheck = func(p string) {
		if p == "d0/f0" || p == "d1/f0" {
			both.Done()
			both.Wait()
			cancel()
		}
	}
	t.Cleanup(func() { testWorkers, testHookAfterCheck = 0, nil })
	last := 0
	rep := Delete(ctx, openRoot(t, root), targets, Options{Progress: func(done, total int) { last = done }})
	if want := []string{"d0/f0", "d1/f0"}; !slices.Equal(rep.Deleted, want) || rep.NotAttempted != 10 ||
		rep.Errors != nil || rep.Gone != nil {
		t.Errorf("got %+v, want %q deleted and 10 not attempted", rep, want)
	}
	if last != 2 {
		t.Errorf("progress ended at %d, want 2", last)
	}
	for _, tg := range targets {
		if !slices.Contains(rep.Deleted, tg.Path) && !exists(root, tg.Path) {
			t.Errorf("%s deleted after cancellation", tg.Path)
		}
	}
	if left := privateLeft(t, root); left != nil {
		t.Errorf("private names left: %q", left)
	}
}
