//go:build linux

package sweep

import (
	"github.com/plangate-gc/plangate-gc/internal/eintr"
	"github.com/plangate-gc/plangate-gc/internal/fserr"

	"golang.org/x/sys/unix"
)

// outcome of one target that is not an error.
type outcome int

const (
	deleted            outcome = iota // renamed to its private name, re-checked, unlinked
	deletedUnprotected                // checked, then unlinked under its own name
	gone                              // no longer there
	// The two deleted outcomes again, for a file that had other hard
	// links (st_nlink > 1 at the last check before unlinkat): its name
	// is gone, its bytes are not freed.
	deletedLinked
	deletedUnprotectedLinked
)

// linked turns a deleted outcome into its "other links survive" form
// when nlink says the file had more names than the one unlinked.
func (o outcome) linked(nlink uint32) outcome {
	switch {
	case nlink <= 1:
		return o
	case o == deleted:
		return deletedLinked
	case o == deletedUnprotected:
		return deletedUnprotectedLinked
	}
	return o
}

// maxName is the longest file name Linux file systems accept (NAME_MAX).
const maxName = 255

// renameat2, when set, replaces the protocol's renameat2 system call, so
// tests can play a file system without RENAME_NOREPLACE.
var renameat2 func(olddirfd int, oldpath string, newdirfd int, newpath string, flags uint) error

// deleteOne runs the deletion protocol for one target:
//
//  1. resolve the parent directory without symlinks or mount crossings,
//     or reuse par when it holds that directory already (the previous
//     target of the same run lives there too);
//  2. statx the name (no follow): a regular file on the root's mount with
//     the scanned dev, ino, size, mtime and ctime (or, for a file with
//     other hard links, the ctime and link count the run's own unlink of
//     another of its names left: links.go), else not deleted;
//  3. renameat2(name → PrivatePrefix+name, RENAME_NOREPLACE), so nobody
//     can put another file under the name we are about to unlink;
//  4. statx the private name: same dev, ino, size and mtime (the rename
//     itself changed ctime) → unlinkat; otherwise rename it back, never
//     over a file that took the original name meanwhile.
//
// In a held directory (h not nil) the name is already out of every path's
// reach, and steps 3 and 4 are one: statx with ctime, then unlinkat (the
// package comment, "Held directories").
func (d *deleter) deleteOne(par *parent, cn *cnames, t Target, h *hold) (outcome, error) {
	dir, name, err := splitPath(t.Path)
	if err != nil {
		return 0, err
	}
	if testHookBeforeResolve != nil {
		testHookBeforeResolve(t.Path)
	}
	dirfd, err := d.parentOf(par, dir, h)
	if err == errGone {
		return gone, nil
	}
	if err != nil {
		return 0, err
	}
	private, plain := cn.set(name)
	if h != nil {
		return d.deleteHeld(dirfd, plain, t)
	}
	nlink, ls, err := d.checkFirst(dirfd, plain, t)
	if err != nil {
		if err == unix.ENOENT {
			return gone, nil
		}
		return 0, err
	}
	defer ls.done()
	if testHookAfterCheck != nil {
		testHookAfterCheck(t.Path)
	}
	if len(PrivatePrefix)+len(name) > maxName || d.noRename2.Load() {
		o, err := d.unlinkUnprotected(dirfd, plain, t, ls)
		return o.linked(nlink), err
	}
	switch err := eintr.Retry(func() error { return renameNoReplace(dirfd, plain, private) }); err {
	case nil:
	case unix.ENOENT:
		return gone, nil
	case unix.EEXIST:
		return 0, fserr.ErrPrivateExists
	case unix.ENOSYS, unix.EINVAL:
		d.noRename2.Store(true)
		o, err := d.unlinkUnprotected(dirfd, plain, t, ls)
		return o.linked(nlink), err
	default:
		return 0, err
	}
	if testHookAfterRename != nil {
		testHookAfterRename(t.Path)
	}
	nlink, cerr := d.checkLinks(dirfd, private, t, false)
	if cerr == unix.ENOENT {
		return gone, nil // taken away from the private name by someone else
	}
	if cerr == nil {
		err := d.unlinkNoted(dirfd, private, t, ls) // never AT_REMOVEDIR
		switch err {
		case nil:
			return deleted.linked(nlink), nil
		case unix.ENOENT:
			return gone, nil
		}
		cerr = err
	}
	// Not ours any more (or not removable): put it back.
	err = eintr.Retry(func() error { return renameNoReplace(dirfd, private, plain) })
	switch err {
	case nil, unix.ENOENT:
		return 0, cerr
	case unix.EEXIST:
		err = fserr.ErrNameTaken
	}
	return 0, &fserr.HeldError{Private: joinPath(dir, PrivatePrefix+name), Cause: cerr, Why: err}
}

// deleteHeld deletes the file name in dirfd, a directory of a held one:
// the statx compares the whole scanned identity, ctime included (no
// rename of the file has changed it), and the unlink follows.
func (d *deleter) deleteHeld(dirfd int, name *byte, t Target) (outcome, error) {
	nlink, ls, err := d.checkFirst(dirfd, name, t)
	if err == unix.ENOENT {
		return gone, nil
	}
	if err != nil {
		return 0, err
	}
	defer ls.done()
	if testHookAfterCheck != nil {
		testHookAfterCheck(t.Path)
	}
	switch err := d.unlinkNoted(dirfd, name, t, ls); err { // never AT_REMOVEDIR
	case nil:
		return deleted.linked(nlink), nil
	case unix.ENOENT:
		return gone, nil
	default:
		return 0, err
	}
}

// unlinkUnprotected is the fallback where the private rename is not
// possible: the identity was just checked; unlink the name (noted in
// ls, the file's ledger entry, when set: links.go).
func (d *deleter) unlinkUnprotected(dirfd int, name *byte, t Target, ls *linkState) (outcome, error) {
	switch err := d.unlinkNoted(dirfd, name, t, ls); err {
	case nil:
		return deletedUnprotected, nil
	case unix.ENOENT:
		return gone, nil
	default:
		return 0, err
	}
}

// checkLinks compares the entry name in dirfd with t's identity and
// returns the file's st_nlink. Its error is unix.ENOENT when the entry
// does not exist, another errno when it cannot be examined, a
// *fserr.KindError when it is not a regular file, fserr.ErrOtherMount when
// it is a mount point of another mount, a *fserr.ChangedError when it
// differs, and nil when it is the same file. withCtime also compares the
// ctime.
func (d *deleter) checkLinks(dirfd int, name *byte, t Target, withCtime bool) (uint32, error) {
	var stx unix.Statx_t
	err := eintr.Retry(func() error { return statxAt(dirfd, name, &stx) })
	if err != nil {
		return 0, err
	}
	return stx.Nlink, d.compare(&stx, t, withCtime)
}

// compare is check's verdict on a statx result.
func (d *deleter) compare(stx *unix.Statx_t, t Target, withCtime bool) error {
	if mode := uint32(stx.Mode); mode&unix.S_IFMT != unix.S_IFREG {
		return &fserr.KindError{Kind: fserr.KindOf(mode), Want: fserr.ErrNotRegular}
	}
	if !d.onRootMount(stx) {
		return fserr.ErrOtherMount
	}
	var ch fserr.ChangedError
	if unix.Mkdev(stx.Dev_major, stx.Dev_minor) != t.Dev || stx.Ino != t.Ino {
		ch.Fields = append(ch.Fields, fserr.FieldInode)
	}
	if int64(stx.Size) != t.Size {
		ch.Fields = append(ch.Fields, fserr.FieldSize)
		ch.OldSize, ch.NewSize = t.Size, int64(stx.Size)
	}
	if nsOf(stx.Mtime) != t.MtimeNs {
		ch.Fields = append(ch.Fields, fserr.FieldMtime)
	}
	if withCtime && nsOf(stx.Ctime) != t.CtimeNs {
		ch.Fields = append(ch.Fields, fserr.FieldCtime)
	}
	if ch.Fields != nil {
		return &ch
	}
	return nil
}

// nsOf joins a statx timestamp into nanoseconds since the epoch, exactly
// as scan does.
func nsOf(ts unix.StatxTimestamp) int64 { return ts.Sec*1e9 + int64(ts.Nsec) }
