//go:build linux

package sweep

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/fserr"

	"golang.org/x/sys/unix"
)

func TestDelete(t *testing.T) {
	type env struct{ root, outside string }
	rename := func(t *testing.T, from, to string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(from, to); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name    string
		files   []string // created, then scanned as targets (unless targets is set)
		targets []string
		mutate  func(t *testing.T, e env) // between scan and delete
		deleted []string
		gone    []string
		errs    map[string]match // path → what its error must be
		exist   []string         // root-relative paths that must survive
		outside []string         // outside-relative paths that must survive
	}{
		{
			name:    "deletes exactly the targets",
			files:   []string{".river/tmp/a", ".river/tmp/b", ".river/tmp/d/c", "artifacts/evals/r/x.json", "top.md"},
			targets: []string{".river/tmp/a", ".river/tmp/d/c", "top.md"},
			deleted: []string{".river/tmp/a", ".river/tmp/d/c", "top.md"},
			exist:   []string{".river/tmp/b", ".river/tmp/d", "artifacts/evals/r/x.json"},
		},
		{
			name:  "vanished file skipped silently",
			files: []string{".river/tmp/a", ".river/tmp/b"},
			mutate: func(t *testing.T, e env) {
				os.Remove(filepath.Join(e.root, ".river/tmp/a"))
			},
			deleted: []string{".river/tmp/b"},
			gone:    []string{".river/tmp/a"},
		},
		{
			name:  "vanished parent skipped silently",
			files: []string{".river/tmp/d/e/a"},
			mutate: func(t *testing.T, e env) {
				os.RemoveAll(filepath.Join(e.root, ".river/tmp/d"))
			},
			gone: []string{".river/tmp/d/e/a"},
		},
		{
			name:  "size changed",
			files: []string{".river/tmp/a"},
			mutate: func(t *testing.T, e env) {
				p := filepath.Join(e.root, ".river/tmp/a")
				os.WriteFile(p, []byte("longer content"), 0o644)
				os.Chtimes(p, epoch, epoch) // same mtime: only the size tells
			},
			errs:  map[string]match{".river/tmp/a": changedIn(fserr.FieldSize)},
			exist: []string{".river/tmp/a"},
		},
		{
			name:  "mtime changed",
			files: []string{".river/tmp/a"},
			mutate: func(t *testing.T, e env) {
				later := epoch.Add(time.Nanosecond)
				os.Chtimes(filepath.Join(e.root, ".river/tmp/a"), later, later)
			},
			errs:  map[string]match{".river/tmp/a": changedIn(fserr.FieldMtime)},
			exist: []string{".river/tmp/a"},
		},
		{
			name:  "replaced by another inode with same size and mtime",
			files: []string{".river/tmp/a"},
			mutate: func(t *testing.T, e env) {
				write(t, e.root, ".river/tmp/a.new", "content")
				rename(t, filepath.Join(e.root, ".river/tmp/a.new"), filepath.Join(e.root, ".river/tmp/a"))
			},
			errs:  map[string]match{".river/tmp/a": changedIn(fserr.FieldInode)},
			exist: []string{".river/tmp/a"},
		},
		{
			name:  "file swapped for a symlink to an outside file",
			files: []string{".river/tmp/a"},
			mutate: func(t *testing.T, e env) {
				p := filepath.Join(e.root, ".river/tmp/a")
				rename(t, p, filepath.Join(e.outside, "a")) // same inode, now outside
				os.Symlink(filepath.Join(e.outside, "a"), p)
			},
			errs:    map[string]match{".river/tmp/a": kindIs(unix.S_IFLNK, fserr.ErrNotRegular)},
			exist:   []string{".river/tmp/a"},
			outside: []string{"a"},
		},
		{
			name:  "file swapped for a directory",
			files: []string{".river/tmp/a"},
			mutate: func(t *testing.T, e env) {
				p := filepath.Join(e.root, ".river/tmp/a")
				os.Remove(p)
				os.Mkdir(p, 0o755)
			},
			errs:  map[string]match{".river/tmp/a": kindIs(unix.S_IFDIR, fserr.ErrNotRegular)},
			exist: []string{".river/tmp/a"},
		},
		{
			name:  "parent swapped for a symlink to outside",
			files: []string{".river/tmp/d/a", ".river/tmp/b"},
			mutate: func(t *testing.T, e env) {
				// The very file scanned (same inode, size, mtime) now lives
				// outside, reachable only through the symlink.
				d := filepath.Join(e.root, ".river/tmp/d")
				rename(t, d, filepath.Join(e.outside, "d"))
				os.Symlink(filepath.Join(e.outside, "d"), d)
			},
			deleted: []string{".river/tmp/b"},
			errs:    map[string]match{".river/tmp/d/a": kindIs(unix.S_IFLNK, fserr.ErrNotDir)},
			exist:   []string{".river/tmp/d"},
			outside: []string{"d/a"},
		},
		{
			name:  "upper parent swapped for a relative symlink",
			files: []string{".river/memory/x/y/a"},
			mutate: func(t *testing.T, e env) {
				mem := filepath.Join(e.root, ".river/memory")
				rename(t, mem, filepath.Join(e.outside, "memory"))
				rel, _ := filepath.Rel(filepath.Join(e.root, ".river"), filepath.Join(e.outside, "memory"))
				os.Symlink(rel, mem)
			},
			errs:    map[string]match{".river/memory/x/y/a": kindIs(unix.S_IFLNK, fserr.ErrNotDir)},
			outside: []string{"memory/x/y/a"},
		},
		{
			name:  "parent swapped for a file",
			files: []string{".river/tmp/d/a"},
			mutate: func(t *testing.T, e env) {
				os.RemoveAll(filepath.Join(e.root, ".river/tmp/d"))
				write(t, e.root, ".river/tmp/d", "x")
			},
			errs:  map[string]match{".river/tmp/d/a": kindIs(unix.S_IFREG, fserr.ErrNotDir)},
			exist: []string{".river/tmp/d"},
		},
		{
			name:    "directory target never removed",
			files:   []string{".river/tmp/d/a", ".river/tmp/empty/.keep"},
			targets: []string{".river/tmp/d", ".river/tmp/empty"},
			mutate: func(t *testing.T, e env) {
				os.Remove(filepath.Join(e.root, ".river/tmp/empty/.keep"))
			},
			errs: map[string]match{
				".river/tmp/d":     kindIs(unix.S_IFDIR, fserr.ErrNotRegular),
				".river/tmp/empty": kindIs(unix.S_IFDIR, fserr.ErrNotRegular),
			},
			exist: []string{".river/tmp/d/a", ".river/tmp/empty"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			withResolver(t, func(t *testing.T) {
				e := env{root: t.TempDir(), outside: t.TempDir()}
				for _, f := range tt.files {
					write(t, e.root, f, "content")
				}
				names := tt.targets
				if names == nil {
					names = tt.files
				}
				var targets []Target
				for _, n := range names {
					targets = append(targets, target(t, e.root, n))
				}
				if tt.mutate != nil {
					tt.mutate(t, e)
				}
				rep := del(t, e.root, targets, Options{})
				if !slices.Equal(rep.Deleted, tt.deleted) {
					t.Errorf("deleted %q, want %q", rep.Deleted, tt.deleted)
				}
				if !slices.Equal(rep.Gone, tt.gone) {
					t.Errorf("gone %q, want %q", rep.Gone, tt.gone)
				}
				checkErrors(t, rep.Errors, fserr.OpDelete, tt.errs)
				for _, p := range rep.Deleted {
					if exists(e.root, p) {
						t.Errorf("%s reported deleted but exists", p)
					}
				}
				for _, p := range tt.exist {
					if !exists(e.root, p) {
						t.Errorf("%s must survive", p)
					}
				}
				for _, p := range tt.outside {
					if !exists(e.outside, p) {
						t.Errorf("outside file %s was deleted", p)
					}
				}
			})
		})
	}
}

// match says whether an error's cause is the expected one.
type match func(err error) bool

// changedIn wants a *fserr.ChangedError naming at least fields (a ctime
// may or may not differ too: its clock is coarse).
func changedIn(fields ...fserr.Field) match {
	return func(err error) bool {
		var ch *fserr.ChangedError
		if !errors.As(err, &ch) || !errors.Is(err, fserr.ErrChanged) {
			return false
		}
		for _, f := range fields {
			if !slices.Contains(ch.Fields, f) {
				return false
			}
		}
		return true
	}
}

// kindIs wants a *fserr.KindError of type typ wrapping want.
func kindIs(typ uint32, want error) match {
	return func(err error) bool {
		var k *fserr.KindError
		return errors.As(err, &k) && k.Kind == fserr.KindOf(typ) && errors.Is(err, want)
	}
}

// is wants errors.Is(err, target).
func is(target error) match { return func(err error) bool { return errors.Is(err, target) } }

// checkErrors wants exactly one error per path of want, each an
// *fserr.Error with Op op, matching want[path].
func checkErrors(t *testing.T, got []*fserr.Error, op fserr.Op, want map[string]match) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("errors %v, want %d", got, len(want))
		return
	}
	for _, e := range got {
		if m, ok := want[e.Path]; !ok || e.Op != op || !m(e) {
			t.Errorf("unexpected error %v (%#v)", e, e.Err)
		}
	}
}

func TestDeleteRefusesUnsafePaths(t *testing.T) {
	for _, p := range []string{"", "../outside.txt", ".river/../../outside.txt", "./inside.txt", "/abs",
		".river//tmp/a", ".river/tmp/", "a\x00b", "bad\xff"} {
		t.Run(p, func(t *testing.T) {
			base := t.TempDir()
			root := filepath.Join(base, "root")
			write(t, base, "outside.txt", "x")
			write(t, root, "inside.txt", "x")
			tg := target(t, base, "outside.txt")
			tg.Path = p
			if p == "/abs" {
				tg.Path = filepath.Join(base, "outside.txt")
			}
			rep := del(t, root, []Target{tg}, Options{})
			if len(rep.Deleted) != 0 || len(rep.Errors) != 1 || !errors.Is(rep.Errors[0], fserr.ErrBadPath) {
				t.Errorf("got %+v, want one ErrBadPath", rep)
			}
			if !exists(base, "outside.txt") || !exists(root, "inside.txt") {
				t.Error("a refused target was deleted")
			}
		})
	}
}

// TestDeleteSwapDuringRun uses the hook to change the tree after earlier
// targets were deleted and right before a later one is resolved.
func TestDeleteSwapDuringRun(t *testing.T) {
	withResolver(t, func(t *testing.T) {
		sequential(t)
		root, outside := t.TempDir(), t.TempDir()
		write(t, root, "artifacts/evals/r1/a.json", "a")
		write(t, root, "artifacts/evals/r2/b.json", "b")
		write(t, root, "artifacts/evals/r3/c.json", "c")
		targets := []Target{
			target(t, root, "artifacts/evals/r3/c.json"),
			target(t, root, "artifacts/evals/r1/a.json"),
			target(t, root, "artifacts/evals/r2/b.json"),
		}
		var seen []string
		testHookBeforeResolve = func(p string) {
			seen = append(seen, p)
			if p == "artifacts/evals/r2/b.json" {
				if exists(root, "artifacts/evals/r1/a.json") {
					t.Error("targets are not processed in path order")
				}
				d := filepath.Join(root, "artifacts/evals/r2")
				if err := os.Rename(d, filepath.Join(outside, "r2")); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(filepath.Join(outside, "r2"), d); err != nil {
					t.Fatal(err)
				}
			}
		}
		var progress []int
		rep := del(t, root, targets, Options{Progress: func(done, total int) {
			if total != 3 {
				t.Errorf("total %d", total)
			}
			progress = append(progress, done)
		}})
		if want := []string{"artifacts/evals/r1/a.json", "artifacts/evals/r3/c.json"}; !slices.Equal(rep.Deleted, want) {
			t.Errorf("deleted %q, want %q", rep.Deleted, want)
		}
		checkErrors(t, rep.Errors, fserr.OpDelete, map[string]match{"artifacts/evals/r2/b.json": kindIs(unix.S_IFLNK, fserr.ErrNotDir)})
		if !exists(outside, "r2/b.json") {
			t.Error("file outside the root was deleted")
		}
		if !slices.Equal(progress, []int{1, 2, 3}) || len(seen) != 3 {
			t.Errorf("progress %v, hook saw %q", progress, seen)
		}
	})
}

func TestDeleteDuplicateTargetsAndOrder(t *testing.T) {
	root := t.TempDir()
	write(t, root, "b", "x")
	write(t, root, "a", "x")
	tb, ta := target(t, root, "b"), target(t, root, "a")
	rep := del(t, root, []Target{tb, ta, tb}, Options{})
	if !slices.Equal(rep.Deleted, []string{"a", "b"}) || !slices.Equal(rep.Gone, []string{"b"}) || len(rep.Errors) != 0 {
		t.Errorf("got %+v", rep)
	}
}

func TestDeleteErrorsSorted(t *testing.T) {
	root := t.TempDir()
	rep := del(t, root, []Target{{Path: "z/../a"}, {Path: "/b"}, {Path: "a//b"}, {Path: "/a"}}, Options{})
	var got []string
	for _, e := range rep.Errors {
		got = append(got, e.Path)
	}
	if want := []string{"/a", "/b", "a//b", "z/../a"}; !slices.Equal(got, want) {
		t.Errorf("error order %q, want %q", got, want)
	}
}
