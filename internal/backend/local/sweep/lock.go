//go:build linux

package sweep

import (
	"sync"

	"github.com/plangate-gc/plangate-gc/internal/eintr"
	"github.com/plangate-gc/plangate-gc/internal/fserr"

	"golang.org/x/sys/unix"
)

// Lock takes an exclusive, non-blocking flock(2) on the root directory
// rootfd (which may be an O_PATH descriptor: the lock is taken on a
// read-only descriptor of the same directory, opened through rootfd), so
// that two concurrent river gc --force runs on one repository cannot
// interleave their scans and deletions. It never waits: a held lock yields
// an *fserr.Error (Op fserr.OpLock, Path ".") with cause fserr.ErrLocked
// at once (another process, or another Lock call in this process, holds
// it: river gc --force then exits 1 and changes nothing); other failures
// carry the errno.
//
// The lock belongs to the open file description, so it is released by
// unlock, or by the kernel when the process exits or crashes; no lock file
// is created and nothing is left behind. unlock is safe to call more than
// once (later calls return nil). flock is advisory and, on network file
// systems, only as reliable as the server's lock support.
func Lock(rootfd int) (unlock func() error, err error) {
	fd, err := eintr.Value(func() (int, error) {
		return unix.Openat(rootfd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, fserr.New(fserr.OpLock, ".", err)
	}
	err = eintr.Retry(func() error { return unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB) })
	if err != nil {
		unix.Close(fd)
		if err == unix.EWOULDBLOCK {
			err = fserr.ErrLocked
		}
		return nil, fserr.New(fserr.OpLock, ".", err)
	}
	var once sync.Once
	return func() error {
		var uerr error
		once.Do(func() {
			uerr = unix.Flock(fd, unix.LOCK_UN)
			if cerr := unix.Close(fd); uerr == nil {
				uerr = cerr
			}
			if uerr != nil {
				uerr = fserr.New(fserr.OpLock, ".", uerr)
			}
		})
		return uerr
	}, nil
}

// Held reports whether another process holds the lock Lock takes on the
// root rootfd right now: a live --force run, whose private names are
// files in flight, not leftovers of an interrupted run. It tries a shared,
// non-blocking flock and drops it at once; for that instant a --force run
// starting on the same root would find the root locked (exit 1, nothing
// changed), so it is called only when private names were found. An error
// (the root cannot be opened for reading) means "unknown".
func Held(rootfd int) (bool, error) {
	fd, err := eintr.Value(func() (int, error) {
		return unix.Openat(rootfd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return false, fserr.New(fserr.OpLock, ".", err)
	}
	defer unix.Close(fd)
	err = eintr.Retry(func() error { return unix.Flock(fd, unix.LOCK_SH|unix.LOCK_NB) })
	if err == unix.EWOULDBLOCK {
		return true, nil
	}
	if err != nil {
		return false, fserr.New(fserr.OpLock, ".", err)
	}
	return false, nil // closing fd drops the shared lock
}
