package report

import (
	"errors"
	"fmt"
	"strings"

	"github.com/plangate-gc/plangate-gc/internal/fserr"
	"github.com/plangate-gc/plangate-gc/internal/fsmsg"
	"github.com/plangate-gc/plangate-gc/sweep"

	"golang.org/x/sys/unix"
)

// Stopgap until the report catalog words sweep's typed errors: close to
// river gc's earlier English messages.

// sweepText words a sweep error for errors[].
func sweepText(e *fserr.Error) string {
	var held *fserr.HeldError
	if errors.As(e.Err, &held) {
		return "changed during deletion; original name taken, left as " + held.Private
	}
	var kind *fserr.KindError
	var ch *fserr.ChangedError
	var errno unix.Errno
	switch {
	case errors.As(e.Err, &ch):
		var diffs []string
		for _, f := range ch.Fields {
			switch f {
			case fserr.FieldInode:
				diffs = append(diffs, "replaced by another file (device/inode differ)")
			case fserr.FieldSize:
				diffs = append(diffs, fmt.Sprintf("size %d → %d bytes", ch.OldSize, ch.NewSize))
			case fserr.FieldMtime:
				diffs = append(diffs, "modified (mtime differs)")
			case fserr.FieldCtime:
				diffs = append(diffs, "metadata changed (ctime differs)")
			}
		}
		return "changed since scan: " + strings.Join(diffs, ", ") + "; not deleted"
	case errors.As(e.Err, &kind) && errors.Is(kind, fserr.ErrNotDir):
		return "a parent is " + fsmsg.Kind(uint32(kind.Kind)) + ", not a directory; not followed; not deleted"
	case errors.As(e.Err, &kind):
		return "now " + fsmsg.Kind(uint32(kind.Kind)) + ", not a regular file; not deleted"
	case errors.Is(e.Err, fserr.ErrOtherMount):
		return "on another mount; not deleted"
	case errors.Is(e.Err, fserr.ErrPrivateExists):
		return "private name " + sweep.PrivatePrefix + "* already in use; not deleted"
	case errors.Is(e.Err, fserr.ErrBadPath):
		return "refused: not a canonical path; not deleted"
	case errors.As(e.Err, &errno):
		return "cannot delete: " + fsmsg.ErrText(e.Err)
	}
	return "cannot delete: " + e.Err.Error()
}
