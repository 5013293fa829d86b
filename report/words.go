package report

import (
	"errors"
	"fmt"
	"strings"

	"github.com/plangate-gc/plangate-gc/internal/fserr"
	"github.com/plangate-gc/plangate-gc/internal/fsmsg"
	"github.com/plangate-gc/plangate-gc/scan"
	"github.com/plangate-gc/plangate-gc/skill"
)

// ErrorText words a typed file-system error for errors[] and stderr.
func ErrorText(e *fserr.Error) string {
	if errors.Is(e.Err, fserr.ErrNotUTF8) {
		if e.Op == fserr.OpOpenDir {
			return "directory name is not valid UTF-8; not descended"
		}
		return "file name is not valid UTF-8; not listed"
	}
	what := string(e.Op)
	switch e.Op {
	case fserr.OpDelete, fserr.OpRestore:
		var ie *fserr.InterruptedError
		if errors.As(e.Err, &ie) {
			return fmt.Sprintf("run interrupted: %d deletions not attempted", ie.NotAttempted)
		}
		return sweepText(e)
	case fserr.OpOpenRoot:
		what = "cannot open root directory"
	case fserr.OpOpenDir:
		what = "cannot open directory"
	case fserr.OpReadDir:
		what = "cannot read directory"
	case fserr.OpStat:
		what = "cannot stat"
	}
	return what + ": " + fsmsg.ErrText(e.Err)
}

// NoteText words a scan note for --debug.
func NoteText(scope skill.Scope, n scan.Note) string {
	kind := fsmsg.Kind(uint32(n.FileKind))
	dir := "" // the scope directory a missing or odd parent stands for
	for _, d := range scope.Dirs() {
		if d == n.Path || strings.HasPrefix(d, n.Path+"/") {
			dir = d
		}
	}
	switch n.Kind {
	case scan.NoteMissing:
		return "does not exist; nothing to scan in " + dir
	case scan.NoteSymlink, scan.NoteNotDir:
		if dir != "" {
			return "is " + kind + ", not a directory; not followed, nothing scanned in " + dir
		}
		return kind + "; not followed, not listed"
	case scan.NoteSpecial:
		return kind + "; not followed, not listed"
	case scan.NoteOtherMount:
		return "on another file system; not descended"
	case scan.NoteChanged:
		return "changed during scan (now " + kind + "); not descended"
	case scan.NoteMetadataUnusable:
		why := string(n.Reason)
		if n.Err != nil {
			why += ": " + fsmsg.ErrText(n.Err)
		}
		return "metadata not used (" + why + "); mtime used"
	}
	return string(n.Kind)
}
