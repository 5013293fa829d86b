//go:build linux

package sweep

import (
	"errors"
	"sync"
	"unsafe"

	"github.com/plangate-gc/plangate-gc/internal/backend/local/ident"
	"github.com/plangate-gc/plangate-gc/internal/eintr"
	"github.com/plangate-gc/plangate-gc/internal/fserr"

	"golang.org/x/sys/unix"
)

// links is a Delete's ledger of the files with other hard links that it
// unlinked a name of. Unlinking one name of a file (and renaming it to its
// private name first) changes the file's ctime and link count, so every
// other name of it that is a target too would be "changed since scan:
// ctime" (trees copied with cp -al). The ledger remembers, per file
// (dev, ino), the ctime and link count the file had just after the run's
// own last unlink of one of its names, read through a descriptor opened
// on that name before the unlink: a later name of the file whose ctime
// differs from the scanned one is still the scanned file when its ctime
// and link count are exactly those, its size and mtime the scanned ones
// (decision "hard links", docs/safety.md). Any other change — a write, a
// chmod, a link made or removed by someone else, since that unlink — is a
// change, as before.
//
// The names of one such file are handled one at a time: a worker locks
// the file's entry before it compares a name whose file has other links
// (or whose ctime alone differs) and holds it until that name is unlinked
// or kept, so no check reads the ctime between another worker's rename
// and its unlink. A worker holds one entry at a time, so no two wait for
// each other.
type links struct {
	mu sync.Mutex
	m  map[fileID]*linkState
}

// fileID is a file's (st_dev, st_ino).
type fileID struct{ dev, ino uint64 }

// linkState is what the ledger knows of one file.
type linkState struct {
	mu    sync.Mutex // held while one of the file's names is handled
	known bool       // the run unlinked a name of it and read what followed
	ctime int64      // its ctime then (nanoseconds, as nsOf)
	nlink uint32     // its link count then
}

// lock returns the ledger entry of the file t was scanned as, locked.
func (l *links) lock(t Target) *linkState {
	l.mu.Lock()
	if l.m == nil {
		l.m = map[fileID]*linkState{}
	}
	id := fileID{t.Dev, t.Ino}
	s := l.m[id]
	if s == nil {
		s = &linkState{}
		l.m[id] = s
	}
	l.mu.Unlock()
	s.mu.Lock()
	return s
}

// checkFirst is the first identity check of a target (ctime included):
// checkLinks, and where the file has other links or only its ctime
// differs, the same check again under the file's ledger entry, which then
// also accepts the ctime and link count that the run's own last unlink of
// another name left. It returns that entry, still locked, when it took it
// and the check passed: the caller unlinks through unlinkNoted and then
// unlocks it. A file with one link whose ctime is the scanned one needs
// no entry: no other name of it can be in the run.
func (d *deleter) checkFirst(dirfd int, name *byte, t Target) (uint32, *linkState, error) {
	nlink, err := d.checkLinks(dirfd, name, t, true)
	if (err == nil && nlink <= 1) || (err != nil && !ctimeOnly(err)) {
		return nlink, nil, err
	}
	s := d.links.lock(t)
	var stx unix.Statx_t
	if err = eintr.Retry(func() error { return statxAt(dirfd, name, &stx) }); err == nil {
		err = d.compare(&stx, t, true)
		if ctimeOnly(err) && s.known && nsOf(stx.Ctime) == s.ctime && stx.Nlink == s.nlink {
			err = nil // the run's own unlink of another name changed it, nothing else
		}
	}
	if err != nil {
		s.mu.Unlock()
		return 0, nil, err
	}
	return stx.Nlink, s, nil
}

// ctimeOnly reports whether err is a change of the ctime alone.
func ctimeOnly(err error) bool {
	var ch *fserr.ChangedError
	return errors.As(err, &ch) && len(ch.Fields) == 1 && ch.Fields[0] == fserr.FieldCtime
}

// unlinkNoted is unlinkAt; with s (the file's ledger entry, locked) it
// first opens the name (O_PATH, no follow) and, once the name is gone,
// records in s the ctime and link count the file has then, when it is
// still the file t was scanned as (else s is left as it was, so the
// file's other names are kept: the safe side).
func (d *deleter) unlinkNoted(dirfd int, name *byte, t Target, s *linkState) error {
	if s == nil {
		return eintr.Retry(func() error { return unlinkAt(dirfd, name) })
	}
	fd, oerr := eintr.Value(func() (int, error) { return openPath(dirfd, name) })
	err := eintr.Retry(func() error { return unlinkAt(dirfd, name) })
	if oerr != nil {
		return err
	}
	defer unix.Close(fd)
	var stx unix.Statx_t
	if err == nil && unix.Statx(fd, "", unix.AT_EMPTY_PATH|unix.AT_STATX_SYNC_AS_STAT, ident.StatxMask, &stx) == nil &&
		unix.Mkdev(stx.Dev_major, stx.Dev_minor) == t.Dev && stx.Ino == t.Ino {
		s.known, s.ctime, s.nlink = true, nsOf(stx.Ctime), stx.Nlink
	}
	return err
}

// done unlocks a ledger entry checkFirst returned (nil: none).
func (s *linkState) done() {
	if s != nil {
		s.mu.Unlock()
	}
}

// openPath is openat(dirfd, name, O_PATH|O_NOFOLLOW|O_CLOEXEC) for a
// NUL-terminated name.
func openPath(dirfd int, name *byte) (int, error) {
	fd, _, e := unix.Syscall6(unix.SYS_OPENAT, uintptr(dirfd), uintptr(unsafe.Pointer(name)),
		uintptr(unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC), 0, 0, 0)
	return int(fd), errnoOf(e)
}
