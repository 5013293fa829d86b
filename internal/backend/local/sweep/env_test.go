//go:build linux

package sweep

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/asnobody"
	"github.com/plangate-gc/plangate-gc/internal/fserr"

	"golang.org/x/sys/unix"
)

// Tests of the environment Delete runs in: kernels without openat2 and
// users without permission.

// TestDeleteOpenat2Unavailable plays kernels and seccomp filters that
// refuse openat2: Delete must fall back to the chain after the first
// refusal, for this and every later target.
func TestDeleteOpenat2Unavailable(t *testing.T) {
	for _, errno := range []unix.Errno{unix.ENOSYS, unix.EPERM, unix.EINVAL, unix.E2BIG} {
		t.Run(errno.Error(), func(t *testing.T) {
			sequential(t) // one worker learns the refusal first, and alone
			calls := 0
			openat2 = func(int, string, *unix.OpenHow) (int, error) { calls++; return -1, errno }
			used := map[string]int{}
			testHookResolver = func(via string) { used[via]++ }
			t.Cleanup(func() { openat2, testHookResolver = unix.Openat2, nil })
			root, outside := t.TempDir(), t.TempDir()
			write(t, root, "a/x", "x")
			write(t, root, "b/y", "y")
			write(t, root, "c/z", "z")
			targets := []Target{target(t, root, "a/x"), target(t, root, "b/y"), target(t, root, "c/z")}
			if err := os.Rename(filepath.Join(root, "c"), filepath.Join(outside, "c")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(outside, "c"), filepath.Join(root, "c")); err != nil {
				t.Fatal(err)
			}
			rep := del(t, root, targets, Options{})
			if !slices.Equal(rep.Deleted, []string{"a/x", "b/y"}) {
				t.Errorf("deleted %q", rep.Deleted)
			}
			checkErrors(t, rep.Errors, fserr.OpDelete, map[string]match{"c/z": kindIs(unix.S_IFLNK, fserr.ErrNotDir)})
			if calls != 1 || used["chain"] != 2 || used["openat2"] != 0 {
				t.Errorf("openat2 calls %d, resolvers %v", calls, used)
			}
			if !exists(outside, "c/z") {
				t.Error("outside file deleted")
			}
		})
	}
}

func TestDeletePermissionDenied(t *testing.T) {
	base := asnobody.PublicTempDir(t, "sweep-perm-")
	root := filepath.Join(base, "repo")
	write(t, root, ".river/tmp/locked/a", "x")      // parent owned by root, 0755
	write(t, root, ".river/tmp/open/b", "x")        // parent world-writable
	write(t, root, ".river/tmp/private/sub/c", "x") // parent not searchable
	if err := os.Chmod(filepath.Join(root, ".river/tmp/open"), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(root, ".river/tmp/private"), 0o700); err != nil {
		t.Fatal(err)
	}
	targets := []Target{
		target(t, root, ".river/tmp/locked/a"),
		target(t, root, ".river/tmp/open/b"),
		target(t, root, ".river/tmp/private/sub/c"),
	}
	rep := runAsNobody(t, base, root, targets)
	if want := []string{".river/tmp/open/b"}; !slices.Equal(rep.Deleted, want) {
		t.Errorf("deleted %q, want %q", rep.Deleted, want)
	}
	want := []childError{
		{Path: ".river/tmp/locked/a", Op: fserr.OpDelete, Errno: unix.EACCES},
		{Path: ".river/tmp/private/sub/c", Op: fserr.OpDelete, Errno: unix.EACCES},
	}
	if !slices.Equal(rep.Errors, want) {
		t.Errorf("errors:\n got %+v\nwant %+v", rep.Errors, want)
	}
	if !exists(root, ".river/tmp/locked/a") || !exists(root, ".river/tmp/private/sub/c") {
		t.Error("a file the user may not delete is gone")
	}
}
