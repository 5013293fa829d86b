//go:build linux

package sweep

import (
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestLockHolderNamesThisProcess: while this process holds a root's
// lock, LockHolder names it (pid, a start time not after now, the host);
// once released, it names nobody.
func TestLockHolderNamesThisProcess(t *testing.T) {
	dir := t.TempDir()
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	if _, err := os.Stat("/proc/locks"); err != nil {
		t.Skip("needs /proc/locks (procfs mounted)")
	}
	if _, ok := LockHolder(fd); ok {
		t.Fatal("a holder named before anyone took the lock")
	}
	unlock, err := Lock(fd)
	if err != nil {
		t.Fatal(err)
	}
	h, ok := LockHolder(fd)
	host, _ := os.Hostname()
	switch {
	case !ok:
		t.Fatal("no holder found while this process holds the lock")
	case h.PID != os.Getpid():
		t.Errorf("holder pid %d, want %d", h.PID, os.Getpid())
	case h.Start <= 0 || h.Start > time.Now().Unix():
		t.Errorf("holder start %d, want a time before now", h.Start)
	case h.Host != host:
		t.Errorf("holder host %q, want %q", h.Host, host)
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	if _, ok := LockHolder(fd); ok {
		t.Error("a holder named after the lock was released")
	}
}
