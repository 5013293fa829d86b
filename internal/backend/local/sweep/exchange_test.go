//go:build linux

package sweep

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/fserr"
)

// scopeDir is the directory these tests exchange, and scopePrivate its
// private name.
const (
	scopeDir     = ".river/tmp"
	scopePrivate = ".river/" + PrivatePrefix + "tmp"
)

// scopeTree writes n files directly in .river/tmp and n in
// .river/tmp/sub, and returns their targets in path order.
func scopeTree(t *testing.T, root string, n int) []Target {
	t.Helper()
	var ts []Target
	for _, dir := range []string{scopeDir, scopeDir + "/sub"} {
		for i := range n {
			rel := fmt.Sprintf("%s/f%02d", dir, i)
			write(t, root, rel, "x")
			ts = append(ts, target(t, root, rel))
		}
	}
	slices.SortFunc(ts, func(a, b Target) int { return cmpPath(a.Path, b.Path) })
	return ts
}

// exchangeOpts holds and exchanges .river/tmp.
var exchangeOpts = Options{Hold: []string{scopeDir}, Exchange: []string{scopeDir}}

// statOf is rel's stat below root.
func statOf(t *testing.T, root, rel string) unix.Stat_t {
	t.Helper()
	var st unix.Stat_t
	if err := unix.Lstat(filepath.Join(root, rel), &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// TestExchangeDeletesWithoutARenameEach: a directory of Options.Hold
// that Options.Exchange lists is exchanged once for a fresh one (the
// hook sees its name as an empty directory with its mode and owner), its
// files (a subdirectory's too) are deleted without a rename of their
// own, and afterwards the name is the same directory (inode) with its
// subdirectory, and nothing is left under a private name.
func TestExchangeDeletesWithoutARenameEach(t *testing.T) {
	withResolver(t, func(t *testing.T) {
		root := t.TempDir()
		ts := scopeTree(t, root, 20)
		if err := os.Chmod(filepath.Join(root, scopeDir), 0o1777); err != nil {
			t.Fatal(err)
		}
		owner := os.Geteuid() == 0
		if owner {
			if err := os.Chown(filepath.Join(root, scopeDir), 1234, 2345); err != nil {
				t.Fatal(err)
			}
		}
		was := statOf(t, root, scopeDir)
		holds, renames := holdHooks(t)
		var fresh unix.Stat_t
		var freshNames []os.DirEntry
		after := testHookAfterHold
		testHookAfterHold = func(dir string) {
			after(dir)
			fresh = statOf(t, root, scopeDir)
			freshNames, _ = os.ReadDir(filepath.Join(root, scopeDir))
		}
		rep := del(t, root, ts, exchangeOpts)
		if len(rep.Deleted) != len(ts) || rep.Errors != nil || rep.Unprotected != 0 {
			t.Fatalf("report %+v", rep)
		}
		if !slices.Equal(*holds, []string{scopeDir}) || *renames != 0 {
			t.Errorf("holds %q, per-file renames %d; want %s once and none", *holds, *renames, scopeDir)
		}
		if fresh.Ino == was.Ino || fresh.Mode != was.Mode || len(freshNames) != 0 || (owner && (fresh.Uid != 1234 || fresh.Gid != 2345)) {
			t.Errorf("while exchanged, %s: inode %d (was %d), mode %o (was %o), uid %d gid %d, %d entries; want a fresh empty directory like it",
				scopeDir, fresh.Ino, was.Ino, fresh.Mode, was.Mode, fresh.Uid, fresh.Gid, len(freshNames))
		}
		if now := statOf(t, root, scopeDir); now.Ino != was.Ino || now.Mode != was.Mode {
			t.Errorf("%s after: inode %d mode %o, before: %d %o", scopeDir, now.Ino, now.Mode, was.Ino, was.Mode)
		}
		if fi, err := os.Lstat(filepath.Join(root, scopeDir, "sub")); err != nil || !fi.IsDir() {
			t.Errorf("sub: %v (directories are never removed)", err)
		}
		if left := privateLeft(t, root); left != nil {
			t.Errorf("left under private names: %q", left)
		}
	})
}

// TestExchangeKeepsWhatWritersMake: what a writer makes by path while the
// directory is exchanged (a file, a directory with a file) lands in the
// fresh directory and is merged back, at its own path; a file changed
// since the scan stays where it is; a file the writer makes under the
// name of a file that stays is never put over it, nor it over the
// writer's: the two are exchanged, so the path shows the writer's (what
// it led to last), and the fresh directory stays under the private name
// with the older file, a HeldDirError.
func TestExchangeKeepsWhatWritersMake(t *testing.T) {
	for _, clash := range []bool{false, true} {
		t.Run(fmt.Sprintf("clash=%v", clash), func(t *testing.T) {
			root := t.TempDir()
			ts := scopeTree(t, root, 10)
			kept := ts[3].Path // .river/tmp/f03
			ts[3].Size++       // judged on another size: not deleted
			testHookAfterHold = func(string) {
				write(t, root, scopeDir+"/new", "new")
				write(t, root, scopeDir+"/made/deeper", "deeper")
				if clash {
					write(t, root, kept, "writer's")
				}
			}
			t.Cleanup(func() { testHookAfterHold = nil })
			rep := del(t, root, ts, exchangeOpts)
			if len(rep.Deleted) != len(ts)-1 {
				t.Fatalf("%d deleted, want %d; report %+v", len(rep.Deleted), len(ts)-1, rep)
			}
			atKept := "x"
			if clash {
				atKept = "writer's"
			}
			if content(t, root, scopeDir+"/new") != "new" || content(t, root, scopeDir+"/made/deeper") != "deeper" || content(t, root, kept) != atKept {
				t.Errorf("a writer's file or the file kept is not at its path (%s: %q, want %q)", kept, content(t, root, kept), atKept)
			}
			if !clash {
				if len(rep.Errors) != 1 || rep.Errors[0].Path != kept || exists(root, scopePrivate) {
					t.Fatalf("errors %v (want %s's only); private directory there: %v", rep.Errors, kept, exists(root, scopePrivate))
				}
				return
			}
			var hd *fserr.HeldDirError
			if len(rep.Errors) != 2 || !errors.As(rep.Errors[0], &hd) || rep.Errors[0].Path != scopeDir || hd.Private != scopePrivate || !errors.Is(hd, fserr.ErrNameTaken) {
				t.Fatalf("errors %v, want the exchanged directory's and %s's", rep.Errors, kept)
			}
			if content(t, root, scopePrivate+"/f03") != "x" {
				t.Error("the file kept, whose name the writer's took, is lost")
			}
		})
	}
}

// TestExchangeRefusesAnotherDirectory: a directory swapped in at the name
// between its check and the exchange is not held: it is exchanged back
// at once, nothing in it or in the directory moved away is touched, the
// targets are looked for at their paths (gone), and nothing is left
// under a private name.
func TestExchangeRefusesAnotherDirectory(t *testing.T) {
	root := t.TempDir()
	ts := scopeTree(t, root, 10)
	swapped := false
	renameat2 = func(olddirfd int, oldpath string, newdirfd int, newpath string, flags uint) error {
		if flags == unix.RENAME_EXCHANGE && !swapped {
			swapped = true
			if err := os.Rename(filepath.Join(root, scopeDir), filepath.Join(root, ".river/moved")); err != nil {
				t.Fatal(err)
			}
			write(t, root, scopeDir+"/theirs", "theirs")
		}
		return unix.Renameat2(olddirfd, oldpath, newdirfd, newpath, flags)
	}
	t.Cleanup(func() { renameat2 = nil })
	holds, _ := holdHooks(t)
	rep := del(t, root, ts, exchangeOpts)
	if len(rep.Gone) != len(ts) || rep.Deleted != nil || rep.Errors != nil {
		t.Fatalf("report %+v, want every target gone", rep)
	}
	if len(*holds) != 1 || content(t, root, scopeDir+"/theirs") != "theirs" {
		t.Errorf("holds %q; the directory swapped in does not hold its file at its path", *holds)
	}
	for _, tg := range ts {
		if moved := ".river/moved" + tg.Path[len(scopeDir):]; content(t, root, moved) != "x" {
			t.Errorf("%s was touched", moved)
		}
	}
	if left := privateLeft(t, root); left != nil {
		t.Errorf("left under private names: %q", left)
	}
}

// TestExchangeNotPossible: where the fresh directory's name is taken (a
// file of someone else's) or the file system cannot exchange, nothing is
// held and the targets take the per-file protocol; what has the private
// name is untouched, and nothing else is left under one.
func TestExchangeNotPossible(t *testing.T) {
	for _, why := range []string{"name taken", "no exchange"} {
		t.Run(why, func(t *testing.T) {
			root := t.TempDir()
			ts := scopeTree(t, root, 10)
			if why == "name taken" {
				write(t, root, scopePrivate, "someone's")
			} else {
				renameat2 = func(olddirfd int, oldpath string, newdirfd int, newpath string, flags uint) error {
					if flags == unix.RENAME_EXCHANGE {
						return unix.EINVAL
					}
					return unix.Renameat2(olddirfd, oldpath, newdirfd, newpath, flags)
				}
				t.Cleanup(func() { renameat2 = nil })
			}
			holds, renames := holdHooks(t)
			rep := del(t, root, ts, exchangeOpts)
			if len(rep.Deleted) != len(ts) || rep.Errors != nil || len(*holds) != 0 || *renames != len(ts) {
				t.Fatalf("report %+v, holds %q, %d per-file renames", rep, *holds, *renames)
			}
			if why == "name taken" && content(t, root, scopePrivate) != "someone's" {
				t.Error("the file at the private name was touched")
			}
			if left := privateLeft(t, root); why == "no exchange" && left != nil {
				t.Errorf("left under private names: %q", left)
			}
		})
	}
}
