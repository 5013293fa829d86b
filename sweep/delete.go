package sweep

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/plangate-gc/plangate-gc/internal/fsmsg"

	"golang.org/x/sys/unix"
)

// Target is one file to delete together with the identity it had when it
// was scanned. Delete removes the file only if it still has exactly this
// identity, so a file rewritten, replaced or swapped for a symlink after
// the judgement is never deleted on the strength of a stale verdict.
type Target struct {
	// Path is relative to the root, '/'-separated, without empty, "." or
	// ".." segments (scan.File.Path has this form).
	Path string
	// Dev, Ino, Size and MtimeNs are scan.File's values: st_dev, st_ino,
	// st_size and st_mtim as tv_sec*1e9 + tv_nsec (wrapping like scan's).
	Dev, Ino uint64
	Size     int64
	MtimeNs  int64
}

// Error is one target that was not deleted although it still exists (or
// could not be examined), with the reason. River gc reports these in
// errors[] and exits 1.
type Error struct {
	// Path is the target's path; bytes that are not valid UTF-8 are
	// written as \xNN.
	Path string
	// Message says why, e.g. "changed since scan: size 10 → 12 bytes; not
	// deleted" or "cannot delete: permission denied".
	Message string
}

// Report is the outcome of Delete. Every target ends in exactly one of
// Deleted, Gone or Errors (a path given twice is reported once per
// occurrence; the second finds it gone).
type Report struct {
	// Deleted lists the paths actually unlinked, sorted (byte order). In
	// force mode this is river gc's removed[].
	Deleted []string
	// Gone lists targets that no longer existed (ENOENT at any step); they
	// are neither deleted nor errors, and are given for --debug only.
	Gone []string
	// Errors is sorted by Path, then Message.
	Errors []Error
}

// Options tunes Delete. The zero value is fine.
type Options struct {
	// Progress, when set, is called after each target with the number of
	// targets handled so far and the total, so the caller can draw a
	// progress indicator on a terminal. It runs on the caller's goroutine.
	Progress func(done, total int)
}

// Test hooks. testHookBeforeResolve runs before a target's parent
// directory is resolved, so tests can change the tree between scan and
// delete; testHookResolver learns which resolver produced a parent
// ("openat2" or "chain"); disableOpenat2 forces the openat fallback.
var (
	testHookBeforeResolve func(path string)
	testHookResolver      func(via string)
	disableOpenat2        bool
)

// Delete removes each target below root, in path order, if and only if it
// is still the regular file that was scanned. It never stops early: a
// failure for one target becomes an Errors entry and the others proceed,
// and successful deletions are never undone. root itself is opened as given
// (a symlinked root is the caller's choice); nothing below it is followed.
// If root cannot be opened, nothing is deleted and the one Errors entry has
// Path ".".
//
// The caller is expected to hold Lock(root) for the duration.
func Delete(root string, targets []Target, opts Options) Report {
	ts := slices.Clone(targets)
	slices.SortStableFunc(ts, func(a, b Target) int { return strings.Compare(a.Path, b.Path) })
	var rep Report
	rootfd, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		rep.Errors = append(rep.Errors, Error{Path: ".", Message: "cannot open root directory: " + fsmsg.ErrText(err)})
		return rep
	}
	defer unix.Close(rootfd)
	d := &deleter{rootfd: rootfd, useOpenat2: !disableOpenat2}
	for i, t := range ts {
		switch msg, gone := d.deleteOne(t); {
		case gone:
			rep.Gone = append(rep.Gone, t.Path)
		case msg != "":
			rep.Errors = append(rep.Errors, Error{Path: fsmsg.Printable(t.Path), Message: msg})
		default:
			rep.Deleted = append(rep.Deleted, t.Path)
		}
		if opts.Progress != nil {
			opts.Progress(i+1, len(ts))
		}
	}
	slices.SortFunc(rep.Errors, func(a, b Error) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(a.Message, b.Message))
	})
	return rep
}

// deleteOne handles one target. It returns gone=true when the file (or a
// parent) no longer exists, a non-empty message when the target was not
// deleted for another reason, and neither when it was deleted.
func (d *deleter) deleteOne(t Target) (msg string, gone bool) {
	comps, err := splitPath(t.Path)
	if err != nil {
		return "refused: " + err.Error() + "; not deleted", false
	}
	if testHookBeforeResolve != nil {
		testHookBeforeResolve(t.Path)
	}
	dirfd, err := d.openParent(comps[:len(comps)-1])
	if err != nil {
		if errors.Is(err, errGone) {
			return "", true
		}
		return err.Error() + "; not deleted", false
	}
	if dirfd != d.rootfd {
		defer unix.Close(dirfd)
	}
	name := comps[len(comps)-1]
	var st unix.Stat_t
	for {
		err = unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		if err != unix.EINTR {
			break
		}
	}
	if errors.Is(err, unix.ENOENT) {
		return "", true
	}
	if err != nil {
		return "cannot stat: " + fsmsg.ErrText(err) + "; not deleted", false
	}
	if msg := changed(t, &st); msg != "" {
		return msg + "; not deleted", false
	}
	for {
		err = unix.Unlinkat(dirfd, name, 0) // never AT_REMOVEDIR
		if err != unix.EINTR {
			break
		}
	}
	if errors.Is(err, unix.ENOENT) {
		return "", true
	}
	if err != nil {
		return "cannot delete: " + fsmsg.ErrText(err), false
	}
	return "", false
}

// changed compares the entry found now with the scanned identity and
// describes every difference, or returns "" when it is the same file.
func changed(t Target, st *unix.Stat_t) string {
	if typ := st.Mode & unix.S_IFMT; typ != unix.S_IFREG {
		return "now " + fsmsg.Kind(typ) + ", not a regular file"
	}
	var diffs []string
	if uint64(st.Dev) != t.Dev || uint64(st.Ino) != t.Ino {
		diffs = append(diffs, "replaced by another file (device/inode differ)")
	}
	if st.Size != t.Size {
		diffs = append(diffs, fmt.Sprintf("size %d → %d bytes", t.Size, st.Size))
	}
	if ns := int64(st.Mtim.Sec)*1e9 + int64(st.Mtim.Nsec); ns != t.MtimeNs {
		diffs = append(diffs, "modified (mtime differs)")
	}
	if diffs == nil {
		return ""
	}
	return "changed since scan: " + strings.Join(diffs, ", ")
}

// splitPath validates a root-relative target path and splits it into
// components. It refuses anything that could name a file outside the root
// or that is not in scan's canonical form.
func splitPath(p string) ([]string, error) {
	switch {
	case p == "":
		return nil, errors.New("empty path")
	case strings.HasPrefix(p, "/"):
		return nil, errors.New("absolute path")
	case strings.IndexByte(p, 0) >= 0:
		return nil, errors.New("path contains NUL")
	case !utf8.ValidString(p):
		return nil, errors.New("path is not valid UTF-8")
	}
	comps := strings.Split(p, "/")
	for _, c := range comps {
		switch c {
		case "":
			return nil, errors.New("empty path segment")
		case ".", "..":
			return nil, fmt.Errorf("%q path segment", c)
		}
	}
	return comps, nil
}
