package sweep

import (
	"errors"
	"fmt"
	"sync"

	"golang.org/x/sys/unix"
)

// ErrLocked is returned (wrapped; test with errors.Is) by Lock when another
// process — or another Lock call in this process — already holds the lock
// on the same root. River gc --force then exits 1 and changes nothing.
var ErrLocked = errors.New("another river gc --force run holds the lock on this root")

// Lock takes an exclusive, non-blocking flock(2) on the root directory
// itself, so that two concurrent river gc --force runs on one repository
// cannot interleave their scans and deletions. It never waits: a held lock
// yields ErrLocked at once.
//
// The lock belongs to the open file description, so it is released by
// unlock, or by the kernel when the process exits or crashes; no lock file
// is created and nothing is left behind. unlock is safe to call more than
// once (later calls return nil). flock is advisory and, on network file
// systems, only as reliable as the server's lock support.
func Lock(root string) (unlock func() error, err error) {
	fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("lock %s: cannot open root directory: %w", root, err)
	}
	for {
		err = unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		unix.Close(fd)
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, fmt.Errorf("lock %s: %w", root, ErrLocked)
		}
		return nil, fmt.Errorf("lock %s: %w", root, err)
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
				uerr = fmt.Errorf("unlock %s: %w", root, uerr)
			}
		})
		return uerr
	}, nil
}
