//go:build linux

package sweep

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/fserr"

	"golang.org/x/sys/unix"
)

// Tests of the private-name protocol: the file is changed at each step
// between the identity check and the unlink.

// privateLeft lists every entry below root whose name has PrivatePrefix.
func privateLeft(t *testing.T, root string) []string {
	t.Helper()
	var left []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), PrivatePrefix) {
			rel, _ := filepath.Rel(root, p)
			left = append(left, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return left
}

func content(t *testing.T, root, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestDeleteRaces(t *testing.T) {
	const rel = ".river/tmp/a.json"
	later := epoch.Add(time.Second)
	type env struct {
		root string
		fd   *os.File // opened on the file before Delete, as a writer would
	}
	tests := []struct {
		name   string
		after  string // "check" or "rename": which hook mutates
		mutate func(t *testing.T, e env)
		err    match  // nil: the scanned file is deleted
		want   string // content under rel afterwards ("" = must not exist)
	}{
		{"appended after check", "check", func(t *testing.T, e env) {
			if _, err := e.fd.WriteString("+more"); err != nil {
				t.Fatal(err)
			}
		}, changedIn(fserr.FieldSize), "content+more"},
		{"touched after check", "check", func(t *testing.T, e env) {
			if err := os.Chtimes(filepath.Join(e.root, rel), later, later); err != nil {
				t.Fatal(err)
			}
		}, changedIn(fserr.FieldMtime), "content"},
		{"renamed onto after check", "check", func(t *testing.T, e env) {
			write(t, e.root, ".river/tmp/new", "CONTENT") // same size and mtime
			if err := os.Rename(filepath.Join(e.root, ".river/tmp/new"), filepath.Join(e.root, rel)); err != nil {
				t.Fatal(err)
			}
		}, changedIn(fserr.FieldInode), "CONTENT"},
		{"appended after rename", "rename", func(t *testing.T, e env) {
			if _, err := e.fd.WriteString("+more"); err != nil {
				t.Fatal(err)
			}
		}, changedIn(fserr.FieldSize), "content+more"},
		{"touched after rename", "rename", func(t *testing.T, e env) {
			ts := []unix.Timespec{unix.NsecToTimespec(later.UnixNano()), unix.NsecToTimespec(later.UnixNano())}
			if err := unix.UtimesNanoAt(unix.AT_FDCWD, filepath.Join(e.root, ".river/tmp", PrivatePrefix+"a.json"), ts, 0); err != nil {
				t.Fatal(err)
			}
		}, changedIn(fserr.FieldMtime), "content"},
		{"name taken after rename", "rename", func(t *testing.T, e env) {
			write(t, e.root, rel, "CONTENT")
		}, nil, "CONTENT"}, // the scanned file goes, the newcomer stays
		{"unchanged", "rename", func(t *testing.T, e env) {}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, rel, "content")
			tg := target(t, root, rel)
			f, err := os.OpenFile(filepath.Join(root, rel), os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			hook := func(p string) {
				if p == rel {
					tt.mutate(t, env{root: root, fd: f})
				}
			}
			if tt.after == "check" {
				testHookAfterCheck = hook
			} else {
				testHookAfterRename = hook
			}
			t.Cleanup(func() { testHookAfterCheck, testHookAfterRename = nil, nil })
			rep := del(t, root, []Target{tg}, Options{})
			if tt.err == nil {
				if !slices.Equal(rep.Deleted, []string{rel}) || len(rep.Errors) != 0 || rep.Unprotected != 0 {
					t.Errorf("got %+v, want %s deleted", rep, rel)
				}
			} else {
				checkErrors(t, rep.Errors, fserr.OpDelete, map[string]match{rel: tt.err})
				if len(rep.Deleted) != 0 {
					t.Errorf("deleted %q", rep.Deleted)
				}
			}
			if tt.want == "" {
				if exists(root, rel) {
					t.Errorf("%s survived", rel)
				}
			} else if got := content(t, root, rel); got != tt.want {
				t.Errorf("%s holds %q, want %q", rel, got, tt.want)
			}
			if left := privateLeft(t, root); left != nil {
				t.Errorf("private names left: %q", left)
			}
		})
	}
}

// TestDeleteHeldThenRestored: the file changes under its private name
// and its original name is taken meanwhile. Nothing is overwritten: the
// file stays under its private name (a *fserr.HeldError), Restore refuses
// while the name is taken and puts it back once it is free.
func TestDeleteHeldThenRestored(t *testing.T) {
	const rel, private = "artifacts/evals/r/a.json", "artifacts/evals/r/" + PrivatePrefix + "a.json"
	root := t.TempDir()
	write(t, root, rel, "content")
	tg := target(t, root, rel)
	f, err := os.OpenFile(filepath.Join(root, rel), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	testHookAfterRename = func(string) {
		f.WriteString("+more")
		write(t, root, rel, "newcomer")
	}
	t.Cleanup(func() { testHookAfterRename = nil })
	rep := del(t, root, []Target{tg}, Options{})
	checkErrors(t, rep.Errors, fserr.OpDelete, map[string]match{rel: func(err error) bool {
		var held *fserr.HeldError
		return errors.As(err, &held) && held.Private == private &&
			errors.Is(err, fserr.ErrNameTaken) && changedIn(fserr.FieldSize)(err)
	}})
	if content(t, root, rel) != "newcomer" || content(t, root, private) != "content+more" {
		t.Fatal("a file was overwritten or lost")
	}

	rootfd := openRoot(t, root)
	rep = Restore(rootfd, []string{private})
	checkErrors(t, rep.Errors, fserr.OpRestore, map[string]match{private: is(fserr.ErrNameTaken)})
	if rep.Restored != nil || content(t, root, rel) != "newcomer" || content(t, root, private) != "content+more" {
		t.Fatalf("restore overwrote: %+v", rep)
	}
	if err := os.Remove(filepath.Join(root, rel)); err != nil {
		t.Fatal(err)
	}
	rep = Restore(rootfd, []string{private})
	if !slices.Equal(rep.Restored, []string{private}) || rep.Errors != nil {
		t.Fatalf("got %+v", rep)
	}
	if content(t, root, rel) != "content+more" || privateLeft(t, root) != nil {
		t.Error("not put back")
	}
}

func TestRestore(t *testing.T) {
	root := t.TempDir()
	write(t, root, ".river/tmp/"+PrivatePrefix+"x", "x")
	write(t, root, ".river/tmp/"+PrivatePrefix+"taken", "old")
	write(t, root, ".river/tmp/taken", "new")
	write(t, root, ".river/tmp/plain", "p")
	// Directories held whole: one put back; one whose name was taken by a
	// directory, merged into it (decision 288); one whose name was taken
	// by a file, kept while it holds a file; one removed once empty.
	write(t, root, ".river/tmp/"+PrivatePrefix+"dir/kept", "k")
	write(t, root, ".river/tmp/"+PrivatePrefix+"full/kept", "k")
	write(t, root, ".river/tmp/full/new", "n")
	write(t, root, ".river/tmp/"+PrivatePrefix+"filed/kept", "k")
	write(t, root, ".river/tmp/filed", "f")
	for _, d := range []string{"empty", PrivatePrefix + "empty"} {
		if err := os.Mkdir(filepath.Join(root, ".river/tmp", d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("x", filepath.Join(root, ".river/tmp/"+PrivatePrefix+"link")); err != nil {
		t.Fatal(err)
	}
	rep := Restore(openRoot(t, root), []string{
		".river/tmp/" + PrivatePrefix + "x",
		".river/tmp/" + PrivatePrefix + "taken",
		".river/tmp/" + PrivatePrefix + "dir",
		".river/tmp/" + PrivatePrefix + "full",
		".river/tmp/" + PrivatePrefix + "filed",
		".river/tmp/" + PrivatePrefix + "empty",
		".river/tmp/" + PrivatePrefix + "link",
		".river/tmp/" + PrivatePrefix + "gone",
		".river/tmp/plain",
		".river/tmp/" + PrivatePrefix,
		"../" + PrivatePrefix + "x",
	})
	if want := []string{".river/tmp/" + PrivatePrefix + "dir", ".river/tmp/" + PrivatePrefix + "empty", ".river/tmp/" + PrivatePrefix + "full", ".river/tmp/" + PrivatePrefix + "x"}; !slices.Equal(rep.Restored, want) {
		t.Errorf("restored %q", rep.Restored)
	}
	if content(t, root, ".river/tmp/dir/kept") != "k" || content(t, root, ".river/tmp/full/kept") != "k" ||
		content(t, root, ".river/tmp/full/new") != "n" || content(t, root, ".river/tmp/"+PrivatePrefix+"filed/kept") != "k" ||
		content(t, root, ".river/tmp/filed") != "f" || exists(root, ".river/tmp/"+PrivatePrefix+"full") {
		t.Error("a held directory was not put back or merged, or was merged into a file")
	}
	if _, err := os.Lstat(filepath.Join(root, ".river/tmp/"+PrivatePrefix+"empty")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an emptied held directory whose name was taken is still there: %v", err)
	}
	if want := []string{".river/tmp/" + PrivatePrefix + "gone"}; !slices.Equal(rep.Gone, want) {
		t.Errorf("gone %q", rep.Gone)
	}
	checkErrors(t, rep.Errors, fserr.OpRestore, map[string]match{
		".river/tmp/" + PrivatePrefix + "taken": is(fserr.ErrNameTaken),
		".river/tmp/" + PrivatePrefix + "filed": is(fserr.ErrNameTaken),
		".river/tmp/" + PrivatePrefix + "link":  kindIs(unix.S_IFLNK, fserr.ErrNotRegular),
		".river/tmp/plain":                      is(fserr.ErrBadPath),
		".river/tmp/" + PrivatePrefix:           is(fserr.ErrBadPath),
		"../" + PrivatePrefix + "x":             is(fserr.ErrBadPath),
	})
	if content(t, root, ".river/tmp/x") != "x" || content(t, root, ".river/tmp/taken") != "new" ||
		content(t, root, ".river/tmp/"+PrivatePrefix+"taken") != "old" || content(t, root, ".river/tmp/plain") != "p" {
		t.Error("wrong tree after restore")
	}
}

func TestDeletePrivateNameInUse(t *testing.T) {
	root := t.TempDir()
	write(t, root, "d/a", "a")
	write(t, root, "d/"+PrivatePrefix+"a", "someone else's")
	rep := del(t, root, []Target{target(t, root, "d/a")}, Options{})
	checkErrors(t, rep.Errors, fserr.OpDelete, map[string]match{"d/a": is(fserr.ErrPrivateExists)})
	if content(t, root, "d/a") != "a" || content(t, root, "d/"+PrivatePrefix+"a") != "someone else's" {
		t.Error("a file was touched")
	}
}

func TestDeleteCtimeOnly(t *testing.T) {
	root := t.TempDir()
	write(t, root, "a", "a")
	tg := target(t, root, "a")
	tg.CtimeNs-- // as if chmod or a same-mtime touch came after the scan
	rep := del(t, root, []Target{tg}, Options{})
	checkErrors(t, rep.Errors, fserr.OpDelete, map[string]match{"a": func(err error) bool {
		var ch *fserr.ChangedError
		return errors.As(err, &ch) && slices.Equal(ch.Fields, []fserr.Field{fserr.FieldCtime})
	}})
	if !exists(root, "a") {
		t.Error("deleted")
	}
}

// TestDeleteUnprotected: names too long for the private prefix and file
// systems without renameat2 fall back to check-then-unlink and are counted.
func TestDeleteUnprotected(t *testing.T) {
	long := strings.Repeat("l", maxName-len(PrivatePrefix)+1)
	for _, mode := range []string{"long name", "ENOSYS", "EINVAL"} {
		t.Run(mode, func(t *testing.T) {
			root := t.TempDir()
			names := []string{"a", "b"}
			if mode == "long name" {
				names = []string{"a", long}
			} else {
				errno := unix.ENOSYS
				if mode == "EINVAL" {
					errno = unix.EINVAL
				}
				calls := 0
				renameat2 = func(int, string, int, string, uint) error { calls++; return errno }
				t.Cleanup(func() {
					renameat2 = nil
					if calls != 1 {
						t.Errorf("renameat2 tried %d times, want once", calls)
					}
				})
			}
			var targets []Target
			for _, n := range names {
				write(t, root, n, "x")
				targets = append(targets, target(t, root, n))
			}
			rep := del(t, root, targets, Options{})
			want := 2
			if mode == "long name" {
				want = 1
			}
			if len(rep.Deleted) != 2 || rep.Errors != nil || rep.Unprotected != want {
				t.Errorf("got %+v, want 2 deleted, %d unprotected", rep, want)
			}
		})
	}
}

// TestDeleteCancelled cancels from the Progress callback: the files
// before are deleted, the rest untouched and counted, no private name is
// left.
func TestDeleteCancelled(t *testing.T) {
	root := t.TempDir()
	var targets []Target
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		write(t, root, "d/"+n, n)
		targets = append(targets, target(t, root, "d/"+n))
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rep := Delete(ctx, openRoot(t, root), targets, Options{Progress: func(done, total int) {
		if done == 2 {
			cancel()
		}
	}})
	if !slices.Equal(rep.Deleted, []string{"d/a", "d/b"}) || rep.NotAttempted != 3 || rep.Errors != nil || rep.Gone != nil {
		t.Errorf("got %+v", rep)
	}
	for _, n := range []string{"c", "d", "e"} {
		if !exists(root, "d/"+n) {
			t.Errorf("d/%s deleted after cancellation", n)
		}
	}
	if left := privateLeft(t, root); left != nil {
		t.Errorf("private names left: %q", left)
	}
}
