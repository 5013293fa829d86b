//go:build linux

package testtree

import (
	"os"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// InPrivateMountNS runs f on a locked OS thread that has its own mount
// namespace (mounts made there are invisible to the rest of the system
// and vanish with the thread, which is never unlocked and so exits with
// its goroutine). It skips the test where that is not permitted; f may
// return a *SkipError to skip too (a mount the sandbox refuses).
func InPrivateMountNS(t *testing.T, f func() error) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to unshare a mount namespace")
	}
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread dies with us
		if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
			done <- &SkipError{err}
			return
		}
		if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
			done <- &SkipError{err}
			return
		}
		done <- f()
	}()
	err := <-done
	if s, ok := err.(*SkipError); ok {
		t.Skipf("cannot make a private mount namespace or mount: %v", s.Err)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// SkipError makes InPrivateMountNS skip the test instead of failing it.
type SkipError struct{ Err error }

func (s *SkipError) Error() string { return s.Err.Error() }

// BindMount bind-mounts src over dst; called from InPrivateMountNS's f,
// on the thread whose mount namespace is private.
func BindMount(src, dst string) error {
	return unix.Mount(src, dst, "", unix.MS_BIND, "")
}
