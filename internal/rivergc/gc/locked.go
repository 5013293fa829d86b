//go:build linux

package gc

import (
	"fmt"

	"github.com/plangate-gc/plangate-gc/internal/backend/local/sweep"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
)

// LockedError is a --force run refused because another run holds the
// root's lock: it names the holder when the kernel tells (SPEC B7: pid,
// start time, host). It unwraps to fserr.ErrLocked.
type LockedError struct {
	Path   string
	Holder sweep.Holder
	Known  bool // Holder was found
}

func (e *LockedError) Error() string {
	if !e.Known {
		return "lock " + e.Path + ": " + fserr.ErrLocked.Error()
	}
	return fmt.Sprintf("lock %s: %v (pid %d on %s)", e.Path, fserr.ErrLocked, e.Holder.PID, e.Holder.Host)
}

// Unwrap returns fserr.ErrLocked.
func (e *LockedError) Unwrap() error { return fserr.ErrLocked }
