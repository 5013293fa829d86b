//go:build linux

package gitindex

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// TestTrackedStopsAtMountBoundary mounts a tmpfs over a tracked
// directory in a private mount namespace (this goroutine's thread only)
// and checks that the walk up from it does not cross into the work tree,
// as git does without GIT_DISCOVERY_ACROSS_FILESYSTEM.
func TestTrackedStopsAtMountBoundary(t *testing.T) {
	dir := newRepo(t)
	mnt := filepath.Join(dir, "d1")
	skip := make(chan string, 1)
	go func() {
		defer close(skip)
		// The thread's namespace is changed for good: never unlock, so
		// the runtime retires the thread when this goroutine ends.
		runtime.LockOSThread()
		if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
			skip <- "cannot unshare a mount namespace: " + err.Error()
			return
		}
		if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
			skip <- "cannot make mounts private: " + err.Error()
			return
		}
		if err := unix.Mount("tmpfs", mnt, "tmpfs", 0, ""); err != nil {
			skip <- "cannot mount tmpfs: " + err.Error()
			return
		}
		if err := os.WriteFile(filepath.Join(mnt, "x"), nil, 0o644); err != nil {
			t.Error(err)
			return
		}
		fd, err := unix.Open(mnt, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			t.Error(err)
			return
		}
		defer unix.Close(fd)
		s, err := Tracked(fd)
		if err != nil || s.Len() != 0 || s.Contains("x") {
			t.Errorf("Tracked(tmpfs over d1) = Len %d, Contains(x) %v, %v; want an empty set", s.Len(), s.Contains("x"), err)
		}
	}()
	if reason, ok := <-skip; ok {
		t.Skip(reason)
	}
	// Outside that namespace d1 is the tracked directory again.
	s, err := tracked(t, mnt)
	if err != nil || !s.Contains("x") {
		t.Errorf("Tracked(d1) = Contains(x) %v, %v; want true", s.Contains("x"), err)
	}
}
