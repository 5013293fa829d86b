//go:build linux

package sweep

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/plangate-gc/plangate-gc/internal/backend/local/ident"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
)

// PrivatePrefix starts the name a file is held under, in its own
// directory, between the last identity check and its unlink (see the
// package comment). A file with this prefix left by an interrupted run is
// put back by Restore; scan reports such leftovers.
const PrivatePrefix = ident.PrivatePrefix

// Target is one file to delete together with the identity it had when it
// was scanned. Delete removes the file only if it still has exactly this
// identity, so a file rewritten, replaced or swapped for a symlink after
// the judgement is never deleted on the strength of a stale verdict.
type Target struct {
	// Path is relative to the root, '/'-separated, without empty, "." or
	// ".." segments (scan.File.Path has this form).
	Path string
	// Dev, Ino, Size, MtimeNs and CtimeNs are scan.File's values: st_dev,
	// st_ino, st_size, and st_mtim and st_ctim as tv_sec*1e9 + tv_nsec
	// (wrapping like scan's).
	Dev, Ino uint64
	Size     int64
	MtimeNs  int64
	CtimeNs  int64
}

// Report is the outcome of Delete or Restore. Every target given to
// Delete ends in exactly one of Deleted, Gone or Errors, or is counted in
// NotAttempted (a path given twice is reported once per occurrence; the
// second finds it gone).
type Report struct {
	// Deleted lists the paths actually unlinked, sorted (byte order). In
	// force mode this is river gc's removed[].
	Deleted []string
	// Gone lists targets that no longer existed (ENOENT at any step),
	// sorted; they are neither deleted nor errors.
	Gone []string
	// Restored lists the private names Restore put back, sorted.
	Restored []string
	// Errors holds one *fserr.Error per target not deleted (Op
	// fserr.OpDelete) or leftover or held directory not put back
	// (fserr.OpRestore; a directory's cause is a *fserr.HeldDirError), with
	// the target's path and a typed cause: an errno, *fserr.ChangedError,
	// *fserr.KindError, *fserr.HeldError, fserr.ErrOtherMount,
	// fserr.ErrBadPath, fserr.ErrPrivateExists or fserr.ErrNameTaken.
	// Sorted by Path, then Op, then cause.
	Errors []*fserr.Error
	// NotAttempted counts targets left untouched because the context was
	// done before their turn.
	NotAttempted int
	// NotIntended counts targets left untouched because Options.Intend
	// failed for their batch or an earlier one; IntendErr is that failure.
	NotIntended int
	IntendErr   error
	// Unprotected counts files deleted by check-then-unlink, without the
	// private rename: names too long for PrivatePrefix, or a file system
	// without renameat2(RENAME_NOREPLACE). Their identity was checked, but
	// a file renamed onto the name in between would be deleted instead.
	Unprotected int
	// Linked lists (sorted) the deleted paths whose file had other hard
	// links at the last check before unlinkat: the name is gone, the
	// bytes are still held by the other names, so nothing was freed.
	Linked []string
}

// Options tunes Delete. The zero value is fine.
type Options struct {
	// Progress, when set, is called after each target with the number of
	// targets handled so far and the total, so the caller can draw a
	// progress indicator on a terminal. It runs on the caller's goroutine,
	// one call at a time, with a count that goes up by one each call.
	Progress func(done, total int)
	// Intend, when set, is called with the sorted targets in consecutive
	// batches of Batch targets (the last may be shorter; a path given
	// twice is never split), and no target of a batch is attempted before
	// its call returned nil: it is how river gc journals its intents
	// before it deletes (SPEC B4). The calls are made in order, one at a
	// time, on a goroutine of Delete's: the first before any deletion,
	// each next one as soon as its batch is at most four batches ahead of
	// the last one a worker has begun, so batches are journaled while
	// earlier ones are deleted and no worker waits at a batch's end for
	// the others or for the journal. Delete returns only
	// after the last call has returned. A failing call stops the
	// deletions: its batch and every later one are counted in
	// Report.NotIntended.
	Intend func(batch []Target) error
	// Batch is the number of targets per Intend call (all in one call
	// when ≤ 0).
	Batch int
	// Hold lists root-relative directories whose every entry, when they
	// were scanned, was a target or such a directory (package gc knows
	// this from the scan). Each is held whole under its private name
	// while the targets below it are deleted, so that a file needs one
	// check and its unlink instead of the four calls (package comment,
	// "Held directories"). A directory below another one listed is held
	// with it; one that cannot be held leaves its targets to the
	// per-file protocol. Hold changes how, never whether, a target is
	// deleted.
	Hold []string
	// Exchange lists directories that must never be missing from their
	// path (river gc: every scope's own). One of them in Hold is not
	// renamed but exchanged for a fresh empty directory
	// (renameat2(RENAME_EXCHANGE)), and exchanged back when its targets
	// are done (package comment, "Exchanged directories").
	Exchange []string
}

// Test hooks. testHookBeforeResolve runs before a target's parent
// directory is resolved (or its run's descriptor reused),
// testHookAfterCheck after its identity check and testHookAfterRename
// after it was renamed to its private name, so tests can change the tree
// at each step; testHookResolver learns which resolver produced a parent
// ("openat2" or "chain"); disableOpenat2 forces the openat fallback. All
// run on the worker handling the target (see testWorkers).
var (
	testHookBeforeResolve func(path string)
	testHookAfterCheck    func(path string)
	testHookAfterRename   func(path string)
	testHookResolver      func(via string)
	disableOpenat2        bool
)

// Delete removes each target below the root directory rootfd (which may be
// an O_PATH descriptor) if and only if it is still, at the moment of
// deletion, the regular file that was scanned. Targets are handled in runs
// of one directory, in path order within a run, by up to 2 × GOMAXPROCS
// workers (package comment, "Runs and workers"); the Report does not
// depend on their schedule. A failure for one target becomes an Errors
// entry and the others proceed; successful deletions are never undone.
// Nothing below rootfd is followed and no other mount is entered.
//
// When ctx is done, the files in hand (one per worker at most) are
// finished (deleted or put back) and no further target is attempted; they
// are counted in NotAttempted.
// The caller is expected to hold Lock(rootfd) for the duration.
func Delete(ctx context.Context, rootfd int, targets []Target, opts Options) Report {
	ts := slices.Clone(targets)
	byPath := func(a, b Target) int { return strings.Compare(a.Path, b.Path) }
	if !slices.IsSortedFunc(ts, byPath) { // river gc's are, scope by scope: one pass, not a merge sort
		slices.SortStableFunc(ts, byPath)
	}
	var rep Report
	if len(ts) == 0 {
		return rep
	}
	d := newDeleter(rootfd)
	res := make([]result, len(ts))
	n := workerCount(len(runsOf(ts)))
	pl := newPipeline(ts, opts, n)
	pl.sweep(ctx, d, res, n, opts.Intend, opts.Progress)
	for _, h := range pl.holds { // those whose runs were not all attempted
		d.putBack(h)
		if h.err != nil {
			rep.Errors = append(rep.Errors, h.err)
		}
	}
	notIntended := len(ts)
	if pl.intendErr != nil {
		rep.IntendErr = pl.intendErr
		notIntended = pl.batches[pl.failedAt].lo
	}
	for i, r := range res {
		p := ts[i].Path
		switch {
		case !r.handled && i >= notIntended:
			rep.NotIntended++
		case !r.handled:
			rep.NotAttempted++
		case r.err != nil:
			rep.Errors = append(rep.Errors, fserr.New(fserr.OpDelete, p, r.err))
		case r.st == gone:
			rep.Gone = append(rep.Gone, p)
		default:
			rep.Deleted = append(rep.Deleted, p)
			if r.st == deletedUnprotected || r.st == deletedUnprotectedLinked {
				rep.Unprotected++
			}
			if r.st == deletedLinked || r.st == deletedUnprotectedLinked {
				rep.Linked = append(rep.Linked, p)
			}
		}
	}
	sortErrors(rep.Errors)
	return rep
}

// sortErrors orders errors by path, then op, then cause text, so the same
// run always reports in the same order.
func sortErrors(errs []*fserr.Error) {
	slices.SortStableFunc(errs, func(a, b *fserr.Error) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(string(a.Op), string(b.Op)),
			strings.Compare(a.Err.Error(), b.Err.Error()))
	})
}

// splitPath validates a root-relative target path and splits it into its
// directory ("" for the root) and its last component. It refuses, with
// fserr.ErrBadPath, anything that could name a file outside the root or
// that is not in scan's canonical form.
func splitPath(p string) (dir, name string, err error) {
	if p == "" || p[0] == '/' || strings.IndexByte(p, 0) >= 0 || !utf8.ValidString(p) {
		return "", "", fserr.ErrBadPath
	}
	for rest := p; ; {
		c, after, more := strings.Cut(rest, "/")
		if c == "" || c == "." || c == ".." {
			return "", "", fserr.ErrBadPath
		}
		if !more {
			break
		}
		rest = after
	}
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i], p[i+1:], nil
	}
	return "", p, nil
}

// joinPath is the root-relative path of name in the directory dir.
func joinPath(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}
