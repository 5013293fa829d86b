//go:build linux

package sweep

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/fserr"
)

// heldTree writes n files directly in .river/tmp/h and n in
// .river/tmp/h/sub, and returns their targets in path order.
func heldTree(t *testing.T, root string, n int) []Target {
	t.Helper()
	var ts []Target
	for _, dir := range []string{".river/tmp/h", ".river/tmp/h/sub"} {
		for i := range n {
			rel := fmt.Sprintf("%s/f%02d", dir, i)
			write(t, root, rel, "x")
			ts = append(ts, target(t, root, rel))
		}
	}
	slices.SortFunc(ts, func(a, b Target) int { return cmpPath(a.Path, b.Path) })
	return ts
}

// holdHooks counts the holds taken and the per-file renames made.
func holdHooks(t *testing.T) (holds *[]string, renames *int) {
	var mu sync.Mutex
	holds, renames = new([]string), new(int)
	testHookAfterHold = func(dir string) { mu.Lock(); *holds = append(*holds, dir); mu.Unlock() }
	testHookAfterRename = func(string) { mu.Lock(); *renames++; mu.Unlock() }
	t.Cleanup(func() { testHookAfterHold, testHookAfterRename = nil, nil })
	return holds, renames
}

// TestHoldDeletesUnderOneRename: a directory of Options.Hold is renamed
// once, its files (a subdirectory's too) are deleted without a rename of
// their own, and it is back under its name, with its subdirectory,
// afterwards; nothing is left under a private name.
func TestHoldDeletesUnderOneRename(t *testing.T) {
	withResolver(t, func(t *testing.T) {
		root := t.TempDir()
		ts := heldTree(t, root, 20)
		write(t, root, ".river/tmp/other/g", "x") // not held: the per-file protocol
		ts = append(ts, target(t, root, ".river/tmp/other/g"))
		holds, renames := holdHooks(t)
		rep := del(t, root, ts, Options{Hold: []string{".river/tmp/h", ".river/tmp/h/sub", "../bad", ""}})
		if len(rep.Deleted) != len(ts) || rep.Errors != nil || rep.Unprotected != 0 {
			t.Fatalf("report %+v", rep)
		}
		if !slices.Equal(*holds, []string{".river/tmp/h"}) || *renames != 1 {
			t.Errorf("holds %q, per-file renames %d; want the outer directory once and one rename (other/g)", *holds, *renames)
		}
		for _, d := range []string{".river/tmp/h", ".river/tmp/h/sub", ".river/tmp/other"} {
			if fi, err := os.Lstat(filepath.Join(root, d)); err != nil || !fi.IsDir() {
				t.Errorf("%s: %v (directories are never removed)", d, err)
			}
		}
		if left := privateLeft(t, root); left != nil {
			t.Errorf("left under private names: %q", left)
		}
	})
}

// TestHoldKeepsWhatChanged: in a held directory a file is deleted only
// with its whole scanned identity, ctime included; one rewritten with its
// mtime set back, one swapped for another file, and one made after the
// scan are all still there, under their names, once the directory is
// back.
func TestHoldKeepsWhatChanged(t *testing.T) {
	root := t.TempDir()
	ts := heldTree(t, root, 10)
	sameSize := ".river/tmp/h/f03"
	if err := os.WriteFile(filepath.Join(root, sameSize), []byte("y"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(filepath.Join(root, sameSize), epoch, epoch); err != nil { // only ctime says so
		t.Fatal(err)
	}
	swapped := ".river/tmp/h/sub/f05"
	write(t, root, swapped+".new", "x")
	if err := os.Rename(filepath.Join(root, swapped+".new"), filepath.Join(root, swapped)); err != nil {
		t.Fatal(err)
	}
	write(t, root, ".river/tmp/h/late", "late")
	holds, _ := holdHooks(t)
	rep := del(t, root, ts, Options{Hold: []string{".river/tmp/h"}})
	if len(*holds) != 1 || len(rep.Deleted) != len(ts)-2 {
		t.Fatalf("holds %q, report %+v", *holds, rep)
	}
	checkErrors(t, rep.Errors, fserr.OpDelete, map[string]match{
		sameSize: changedIn(fserr.FieldCtime),
		swapped:  changedIn(fserr.FieldInode),
	})
	if content(t, root, sameSize) != "y" || content(t, root, swapped) != "x" || content(t, root, ".river/tmp/h/late") != "late" {
		t.Error("a file that is not the one scanned was touched")
	}
	if left := privateLeft(t, root); left != nil {
		t.Errorf("left under private names: %q", left)
	}
}

// TestHoldNameTaken: a directory made at the held one's name while it is
// held (a writer's mkdir -p) keeps that name and what was written in it.
// The held one, emptied, is removed; a file in it that was not deleted is
// moved into the new directory, back at its own path (decision 288) —
// unless its name is taken there too, or what took the directory's name
// is not a directory one may enter (a file, a nested repository): then
// the held one stays under its private name, named in a HeldDirError.
func TestHoldNameTaken(t *testing.T) {
	for _, tc := range []struct {
		name, taker string // what the writer makes at .river/tmp/h/<taker>
		keepOne     bool   // f04 judged on another size: not deleted
		stays       bool   // the held directory stays held
		link        bool   // a symlink to a directory outside the root takes the name
	}{
		{"emptied", "new", false, false, false},
		{"kept one merged", "new", true, false, false},
		{"kept one clashes", "f04", true, true, false},
		{"nested repository", ".git", true, true, false},
		{"a file", "", true, true, false},
		{"a symlink", "", true, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sequential(t)
			root := t.TempDir()
			var ts []Target
			for i := range 10 {
				rel := fmt.Sprintf(".river/tmp/h/f%02d", i)
				write(t, root, rel, "x")
				ts = append(ts, target(t, root, rel))
			}
			if tc.keepOne {
				ts[4].Size++
			}
			taker := ".river/tmp/h"
			if tc.taker != "" {
				taker += "/" + tc.taker
			}
			testHookAfterHold = func(string) { write(t, root, taker, "new") }
			outside := t.TempDir()
			if tc.link {
				taker = "new"
				testHookAfterHold = func(string) {
					write(t, outside, taker, "new")
					if err := os.Symlink(outside, filepath.Join(root, ".river/tmp/h")); err != nil {
						t.Fatal(err)
					}
				}
			}
			t.Cleanup(func() { testHookAfterHold = nil })
			rep := del(t, root, ts, Options{Hold: []string{".river/tmp/h"}})
			if tc.link {
				if names, _ := os.ReadDir(outside); len(names) != 1 || content(t, outside, taker) != "new" {
					t.Fatalf("behind the symlink: %v", names)
				}
			} else if content(t, root, taker) != "new" {
				t.Fatal("the writer's file is gone")
			}
			private := ".river/tmp/" + PrivatePrefix + "h"
			switch {
			case !tc.keepOne:
				if rep.Errors != nil || len(rep.Deleted) != 10 || exists(root, private) {
					t.Fatalf("report %+v; private directory there: %v", rep, exists(root, private))
				}
			case !tc.stays:
				if len(rep.Errors) != 1 || rep.Errors[0].Path != ts[4].Path || exists(root, private) {
					t.Fatalf("errors %v (want f04's only); private directory there: %v", rep.Errors, exists(root, private))
				}
				if content(t, root, ts[4].Path) != "x" {
					t.Error("the file not deleted is not back at its path")
				}
			default:
				var hd *fserr.HeldDirError
				if len(rep.Errors) != 2 || !errors.As(rep.Errors[0], &hd) || rep.Errors[0].Op != fserr.OpRestore ||
					hd.Private != private || !errors.Is(hd, fserr.ErrNameTaken) {
					t.Fatalf("errors %v, want f04's and the held directory's", rep.Errors)
				}
				if content(t, root, private+"/f04") != "x" {
					t.Error("the file not deleted is not in the held directory")
				}
			}
		})
	}
}

// TestHoldSwappedForSymlink: a symlink put at a held directory's name
// after the scan is never followed: it is renamed back at once and the
// targets go through the per-file protocol, which refuses the path.
func TestHoldSwappedForSymlink(t *testing.T) {
	root := t.TempDir()
	ts := heldTree(t, root, 10)
	outside := t.TempDir()
	if err := os.Rename(filepath.Join(root, ".river/tmp/h"), filepath.Join(outside, "h")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "h"), filepath.Join(root, ".river/tmp/h")); err != nil {
		t.Fatal(err)
	}
	rep := del(t, root, ts, Options{Hold: []string{".river/tmp/h"}})
	if rep.Deleted != nil || len(rep.Errors) != len(ts) {
		t.Fatalf("report %+v", rep)
	}
	if fi, err := os.Lstat(filepath.Join(root, ".river/tmp/h")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink is not back: %v", err)
	}
	if content(t, outside, "h/sub/f03") != "x" {
		t.Error("a file behind the symlink was touched")
	}
	if left := privateLeft(t, root); left != nil {
		t.Errorf("left under private names: %q", left)
	}
}

// TestHoldPutBackWhenStopped: a run cancelled in a held directory, or
// whose journal fails before its batch, puts the directory back.
func TestHoldPutBackWhenStopped(t *testing.T) {
	t.Run("cancelled", func(t *testing.T) {
		sequential(t)
		root := t.TempDir()
		ts := heldTree(t, root, 10)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		n := 0
		testHookAfterCheck = func(string) {
			if n++; n == 3 {
				cancel()
			}
		}
		t.Cleanup(func() { testHookAfterCheck = nil })
		rep := Delete(ctx, openRoot(t, root), ts, Options{Hold: []string{".river/tmp/h"}})
		if len(rep.Deleted) != 3 || rep.NotAttempted != len(ts)-3 || rep.Errors != nil {
			t.Fatalf("report %+v", rep)
		}
		if !exists(root, ".river/tmp/h/sub/f09") || privateLeft(t, root) != nil {
			t.Error("the held directory is not back")
		}
	})
	t.Run("journal fails", func(t *testing.T) {
		root := t.TempDir()
		ts := heldTree(t, root, 10)
		write(t, root, ".river/tmp/a/g", "x") // batch 0; the held directory is batch 1
		ts = append([]Target{target(t, root, ".river/tmp/a/g")}, ts...)
		calls := 0
		rep := del(t, root, ts, Options{Hold: []string{".river/tmp/h"}, Batch: 1, Intend: func([]Target) error {
			if calls++; calls > 1 {
				return unix.ENOSPC
			}
			return nil
		}})
		if len(rep.Deleted) != 1 || rep.NotIntended != len(ts)-1 || !exists(root, ".river/tmp/h/f00") || privateLeft(t, root) != nil {
			t.Fatalf("report %+v", rep)
		}
	})
}

// TestHoldAfterEveryIntent: a held directory's targets are never cut
// across journal batches, and it leaves its name only once every one of
// them is journaled (so a file missing from its path is always named by
// the journal, SPEC B4).
func TestHoldAfterEveryIntent(t *testing.T) {
	root := t.TempDir()
	ts := heldTree(t, root, 10)
	for i := range 5 {
		rel := fmt.Sprintf(".river/tmp/z/g%d", i)
		write(t, root, rel, "x")
		ts = append(ts, target(t, root, rel))
	}
	var mu sync.Mutex
	intended := map[string]bool{}
	var batches [][]Target
	testHookAfterHold = func(dir string) {
		mu.Lock()
		defer mu.Unlock()
		for _, tg := range ts[:20] {
			if !intended[tg.Path] {
				t.Errorf("%s held before %s was journaled", dir, tg.Path)
			}
		}
	}
	t.Cleanup(func() { testHookAfterHold = nil })
	rep := del(t, root, ts, Options{Hold: []string{".river/tmp/h"}, Batch: 3, Intend: func(b []Target) error {
		mu.Lock()
		defer mu.Unlock()
		batches = append(batches, b)
		for _, tg := range b {
			intended[tg.Path] = true
		}
		return nil
	}})
	if len(rep.Deleted) != len(ts) {
		t.Fatalf("report %+v", rep)
	}
	if len(batches) != 3 || len(batches[0]) != 20 || len(batches[1]) != 3 || len(batches[2]) != 2 {
		t.Errorf("batches of %v targets, want the held directory's 20 together, then 3 and 2", lens(batches))
	}
}

func lens(bs [][]Target) []int {
	var n []int
	for _, b := range bs {
		n = append(n, len(b))
	}
	return n
}
