//go:build linux

package sweep

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/plangate-gc/plangate-gc/internal/eintr"
	"github.com/plangate-gc/plangate-gc/internal/fserr"

	"golang.org/x/sys/unix"
)

// testHookAfterHold runs once a directory of Options.Hold has been renamed
// to its private name, before it is opened; testHookBeforePutBack before
// it is renamed back.
var (
	testHookAfterHold     func(dir string)
	testHookBeforePutBack func(dir string)
)

// hold is one directory of Options.Hold: renamed to its private name in
// its parent when a worker begins the first run below it, renamed back
// when the last run below it ends (package comment, "Held directories").
type hold struct {
	path string // root-relative
	// exchange: Options.Exchange lists it; it is exchanged for a fresh
	// empty directory rather than renamed (exchange.go).
	exchange bool
	runs     atomic.Int64 // runs below it not yet ended
	once     sync.Once    // takes it (take)
	// Set by take, read by the workers after once: whether it is held,
	// its parent's descriptor (the root's own for a directory at the
	// top), its own (O_PATH) and its name in the parent.
	taken   bool
	pfd, fd int
	name    string
	was     unix.Statx_t // an exchanged one's, before the exchange
	mu      sync.Mutex   // guards done and err
	done    bool         // put back (or found gone): the descriptors are closed
	err     *fserr.Error
}

// holdsOf lists the valid directories of want, outermost only (one below
// another is held with it), and indexes them by path; those that
// exchange lists are exchanged.
func holdsOf(want, exchange []string) ([]*hold, map[string]int) {
	var hs []*hold
	at := map[string]int{}
	for _, p := range want {
		if _, _, err := splitPath(p); err == nil {
			at[p] = 0
		}
	}
	for p := range at {
		for a := dirOf(p); a != ""; a = dirOf(a) {
			if _, ok := at[a]; ok {
				delete(at, p)
				break
			}
		}
	}
	for p := range at {
		hs = append(hs, &hold{path: p, exchange: slices.Contains(exchange, p)})
	}
	slices.SortFunc(hs, func(a, b *hold) int { return strings.Compare(a.path, b.path) })
	for i, h := range hs {
		at[h.path] = i
	}
	return hs, at
}

// holdFor is the index in holds of the directory dir lies in (or is), -1
// when none.
func holdFor(at map[string]int, dir string) int {
	for a := dir; a != ""; a = dirOf(a) {
		if i, ok := at[a]; ok {
			return i
		}
	}
	return -1
}

// acquire takes h the first time it is asked and returns it when it is
// held; nil when h is nil or could not be held (its targets then take the
// per-file protocol).
func (d *deleter) acquire(h *hold) *hold {
	if h == nil {
		return nil
	}
	h.once.Do(func() {
		if h.exchange {
			d.takeExchange(h)
		} else {
			d.take(h)
		}
	})
	if !h.taken {
		return nil
	}
	return h
}

// take renames the directory h to its private name in its parent
// (RENAME_NOREPLACE) and opens it there: it must be a directory on the
// root's mount, else it is put back at once and h is not held. Nothing is
// held where renameat2 cannot promise not to replace, nor when the
// private name would be too long.
func (d *deleter) take(h *hold) {
	dir, name, pfd, ok := d.holdParent(h)
	if !ok {
		return
	}
	private := PrivatePrefix + name
	if eintr.Retry(func() error { return renameStrings(pfd, name, private) }) != nil {
		d.closeParent(pfd)
		return
	}
	if testHookAfterHold != nil {
		testHookAfterHold(h.path)
	}
	var stx unix.Statx_t
	fd, err := d.openHeld(pfd, private, &stx)
	if err != nil {
		// Not the directory scanned there (a symlink or a file put at its
		// name): back where it was, untouched.
		if perr := putBack(pfd, private, name); perr != nil {
			h.err = heldDirError(h.path, dir, private, perr)
		}
		d.closeParent(pfd)
		return
	}
	h.taken, h.pfd, h.fd, h.name = true, pfd, fd, name
}

// holdParent splits h's path and opens its parent (openParent); ok is
// false, and nothing is held, where the path is not valid, the private
// name would be too long, or renameat2 cannot promise not to replace.
func (d *deleter) holdParent(h *hold) (dir, name string, pfd int, ok bool) {
	dir, name, err := splitPath(h.path)
	if err != nil || len(PrivatePrefix)+len(name) > maxName || d.noRename2.Load() {
		return "", "", -1, false
	}
	pfd, err = d.openParent(dir)
	return dir, name, pfd, err == nil
}

// openHeld opens the directory private in pfd (O_PATH, not followed)
// and statx'es it into stx: it must be a directory on the root's mount,
// else the error is fserr.ErrOtherMount (or an errno) and nothing stays
// open.
func (d *deleter) openHeld(pfd int, private string, stx *unix.Statx_t) (int, error) {
	fd, err := eintr.Value(func() (int, error) {
		return unix.Openat(pfd, private, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	})
	if err == nil && !d.fstatDir(fd, stx) {
		unix.Close(fd)
		return -1, fserr.ErrOtherMount
	}
	return fd, err
}

// runEnded counts one run below h as ended, and puts h back after the
// last.
func (d *deleter) runEnded(h *hold) {
	if h != nil && h.runs.Add(-1) == 0 {
		d.putBack(h)
	}
}

// putBack renames a held directory back to its name, once; a failure is
// kept for Report.Errors.
func (d *deleter) putBack(h *hold) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.taken || h.done {
		return
	}
	h.done = true
	unix.Close(h.fd)
	if testHookBeforePutBack != nil {
		testHookBeforePutBack(h.path)
	}
	private := PrivatePrefix + h.name
	var err error
	if h.exchange {
		err = d.putBackExchanged(h)
	} else {
		err = putBack(h.pfd, private, h.name)
	}
	if err != nil {
		h.err = heldDirError(h.path, dirOf(h.path), private, err)
	}
	d.closeParent(h.pfd)
}

// heldDirError is the Report.Errors entry of a directory left under its
// private name.
func heldDirError(p, dir, private string, why error) *fserr.Error {
	return fserr.New(fserr.OpRestore, p, &fserr.HeldDirError{Private: joinPath(dir, private), Why: why})
}

// putBack renames private back to name in dirfd, never over anything.
// When name was taken meanwhile and private is an empty directory (a held
// one whose every file was deleted), it is removed instead: nothing is
// lost, and nothing else could take its place. When name was taken by a
// directory, what private still holds is moved into it entry by entry
// (mergeBack, decision 288), so a file kept is back at its own path.
// Otherwise the error is fserr.ErrNameTaken (or an errno). A private name
// already gone is no error.
func putBack(dirfd int, private, name string) error {
	err := eintr.Retry(func() error { return renameStrings(dirfd, private, name) })
	switch err {
	case nil, unix.ENOENT:
		return nil
	case unix.EEXIST, unix.ENOTEMPTY:
		if eintr.Retry(func() error { return unix.Unlinkat(dirfd, private, unix.AT_REMOVEDIR) }) == nil || mergeBack(dirfd, private, name) {
			return nil
		}
		return fserr.ErrNameTaken
	}
	return err
}

// closeParent closes a parent descriptor from openParent, unless it is
// the root's.
func (d *deleter) closeParent(fd int) {
	if fd != d.rootfd {
		unix.Close(fd)
	}
}
