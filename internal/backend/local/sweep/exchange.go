//go:build linux

package sweep

import (
	"strings"

	"github.com/plangate-gc/plangate-gc/internal/eintr"
	"github.com/plangate-gc/plangate-gc/internal/fserr"

	"golang.org/x/sys/unix"
)

// takeExchange holds a directory of Options.Exchange (package comment,
// "Exchanged directories"): a fresh empty directory with the held one's
// mode and owner is made beside it under its private name, and the two
// are exchanged with renameat2(RENAME_EXCHANGE), so that the name never
// stops being a directory. The one now under the private name must be
// the directory found at the name the moment before (device and inode),
// else it is not held (unexchange). Nothing is held where the fresh
// directory cannot be made (its name is taken) or the file system cannot
// exchange: the targets take the per-file protocol.
func (d *deleter) takeExchange(h *hold) {
	dir, name, pfd, ok := d.holdParent(h)
	if !ok {
		return
	}
	private := PrivatePrefix + name
	var was unix.Statx_t
	if !d.statDir(pfd, name, &was) || !d.makeFresh(pfd, name, private, &was) {
		d.closeParent(pfd)
		return
	}
	if eintr.Retry(func() error { return renameExchange(pfd, name, private) }) != nil {
		// Nothing moved: the fresh directory, ours and empty, goes.
		eintr.Retry(func() error { return unix.Unlinkat(pfd, private, unix.AT_REMOVEDIR) }) //nolint:errcheck // a restore removes it
		d.closeParent(pfd)
		return
	}
	if testHookAfterHold != nil {
		testHookAfterHold(h.path)
	}
	var now unix.Statx_t
	fd, err := d.openHeld(pfd, private, &now)
	if err == nil && !sameInode(&now, &was) {
		unix.Close(fd)
		err = fserr.ErrNameTaken
	}
	if err != nil {
		d.unexchange(h, pfd, dir, name, private)
		d.closeParent(pfd)
		return
	}
	h.taken, h.pfd, h.fd, h.name, h.was = true, pfd, fd, name, was
}

// unexchange settles an exchange after which the private name does not
// hold the directory found at the name the moment before. A directory
// swapped in there in between (on the root's mount) is exchanged back at
// once, and the fresh directory, under the private name again, is
// removed, or merged into it when a writer made something in it
// meanwhile. Anything else at the private name (a symlink, another
// mount) is never put at the name: the fresh directory keeps it, and a
// directory of another mount is an error (what it covers stays there).
func (d *deleter) unexchange(h *hold, pfd int, dir, name, private string) {
	var stx unix.Statx_t
	if d.statDir(pfd, private, &stx) {
		err := eintr.Retry(func() error { return renameExchange(pfd, private, name) })
		if err == nil {
			err = putBack(pfd, private, name)
		}
		if err != nil {
			h.err = heldDirError(h.path, dir, private, err)
		}
		return
	}
	err := eintr.Retry(func() error { return unix.Statx(pfd, private, unix.AT_SYMLINK_NOFOLLOW, unix.STATX_TYPE, &stx) })
	if err == nil && uint32(stx.Mode)&unix.S_IFMT == unix.S_IFDIR {
		h.err = heldDirError(h.path, dir, private, fserr.ErrOtherMount)
	}
}

// putBackExchanged ends the hold of an exchanged directory: when its
// private name still holds it (device and inode) and its name is still a
// directory on the root's mount, the two are exchanged again, so the
// directory is back at its name with whatever stayed in it, and the
// fresh one, now under the private name, is removed when empty, or
// merged into it entry by entry (what writers made in it meanwhile,
// never over anything; a file whose name a file of the held directory
// takes is exchanged with it, so the path shows what it led to last:
// mergeNewer). When the name is no such directory
// (a symlink or a mount put there), the held directory is put back as a
// renamed one is (putBack). When the private name no longer holds it
// (moved away), nothing is done: the fresh directory keeps the name.
func (d *deleter) putBackExchanged(h *hold) error {
	private := PrivatePrefix + h.name
	var stx unix.Statx_t
	if !d.statDir(h.pfd, private, &stx) || !sameInode(&stx, &h.was) {
		return nil
	}
	if d.statDir(h.pfd, h.name, &stx) && eintr.Retry(func() error { return renameExchange(h.pfd, private, h.name) }) == nil {
		// Exchanged back, the private name holds the fresh directory
		// (or what took the name since): removed when empty, else
		// merged, what a writer made there taking its path (mergeNewer).
		if eintr.Retry(func() error { return unix.Unlinkat(h.pfd, private, unix.AT_REMOVEDIR) }) == nil || mergeNewer(h.pfd, private, h.name) {
			return nil
		}
		return fserr.ErrNameTaken
	}
	// Not exchanged: the held one is put back as a renamed one is.
	return putBack(h.pfd, private, h.name)
}

// makeFresh makes the empty directory private in dirfd with the mode,
// owner and group of was, and the extended attributes (ACLs among them)
// of name in dirfd, which must still be was: made 0700, so no one
// enters it before it is opened (without following a symlink) and
// checked to be a directory on the root's mount, then given was's owner,
// attributes and mode through that descriptor. The fresh directory may
// keep the name for good (a run killed while exchanged: Restore merges
// the held one into it), so it must be like it in all of these. On any
// failure it is removed and makeFresh returns false.
func (d *deleter) makeFresh(dirfd int, name, private string, was *unix.Statx_t) bool {
	if eintr.Retry(func() error { return unix.Mkdirat(dirfd, private, 0o700) }) != nil {
		return false
	}
	fd, err := eintr.Value(func() (int, error) {
		return unix.Openat(dirfd, private, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	})
	if err == nil {
		var stx unix.Statx_t
		if !d.fstatDir(fd, &stx) {
			err = fserr.ErrOtherMount
		}
		if err == nil && (stx.Uid != was.Uid || stx.Gid != was.Gid) {
			err = eintr.Retry(func() error { return unix.Fchown(fd, int(was.Uid), int(was.Gid)) })
		}
		if err == nil {
			err = copyXattrs(dirfd, name, was, fd)
		}
		if err == nil {
			err = eintr.Retry(func() error { return unix.Fchmod(fd, uint32(was.Mode)&0o7777) })
		}
		unix.Close(fd)
	}
	if err != nil {
		eintr.Retry(func() error { return unix.Unlinkat(dirfd, private, unix.AT_REMOVEDIR) }) //nolint:errcheck // a restore removes it
		return false
	}
	return true
}

// copyXattrs sets on the directory to every extended attribute of name
// in dirfd (opened without following, and only while it is was: device
// and inode). A file system without extended attributes has none to
// copy; any other failure is returned, and nothing is exchanged.
func copyXattrs(dirfd int, name string, was *unix.Statx_t, to int) error {
	from, err := eintr.Value(func() (int, error) {
		return unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return err
	}
	defer unix.Close(from)
	var stx unix.Statx_t
	if err := eintr.Retry(func() error { return unix.Statx(from, "", unix.AT_EMPTY_PATH, unix.STATX_INO, &stx) }); err != nil {
		return err
	}
	if !sameInode(&stx, was) {
		return fserr.ErrNameTaken
	}
	list, err := xattrBytes(func(b []byte) (int, error) { return unix.Flistxattr(from, b) })
	if err == unix.ENOTSUP || err == unix.EOPNOTSUPP {
		return nil
	}
	if err != nil {
		return err
	}
	for _, attr := range strings.Split(strings.TrimSuffix(string(list), "\x00"), "\x00") {
		if attr == "" {
			continue
		}
		v, err := xattrBytes(func(b []byte) (int, error) { return unix.Fgetxattr(from, attr, b) })
		if err == unix.ENODATA {
			continue // removed meanwhile
		}
		if err == nil {
			err = eintr.Retry(func() error { return unix.Fsetxattr(to, attr, v, 0) })
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// xattrBytes calls get with a buffer of the size it asks for (get with
// nil), again while the value grows in between (ERANGE).
func xattrBytes(get func([]byte) (int, error)) ([]byte, error) {
	for range 8 {
		n, err := eintr.Value(func() (int, error) { return get(nil) })
		if err != nil || n == 0 {
			return nil, err
		}
		b := make([]byte, n)
		n, err = eintr.Value(func() (int, error) { return get(b) })
		if err != unix.ERANGE {
			return b[:max(n, 0)], err
		}
	}
	return nil, unix.ERANGE
}

// statDir statx'es name in dirfd without following it (type, mode,
// owner, inode, mount) and reports whether it is a directory on the
// root's mount.
func (d *deleter) statDir(dirfd int, name string, stx *unix.Statx_t) bool {
	return d.isDir(dirfd, name, unix.AT_SYMLINK_NOFOLLOW, stx)
}

// fstatDir is statDir for an open descriptor.
func (d *deleter) fstatDir(fd int, stx *unix.Statx_t) bool {
	return d.isDir(fd, "", unix.AT_EMPTY_PATH, stx)
}

func (d *deleter) isDir(dirfd int, name string, flags int, stx *unix.Statx_t) bool {
	const mask = unix.STATX_TYPE | unix.STATX_MODE | unix.STATX_UID | unix.STATX_GID | unix.STATX_INO | unix.STATX_MNT_ID
	err := eintr.Retry(func() error { return unix.Statx(dirfd, name, flags, mask, stx) })
	return err == nil && uint32(stx.Mode)&unix.S_IFMT == unix.S_IFDIR && d.onRootMount(stx)
}

// sameInode reports whether two statx results name one inode.
func sameInode(a, b *unix.Statx_t) bool {
	return a.Dev_major == b.Dev_major && a.Dev_minor == b.Dev_minor && a.Ino == b.Ino
}

// renameExchange is renameat2(dirfd, a, dirfd, b, RENAME_EXCHANGE)
// (renameat2 as the tests may replace it).
func renameExchange(dirfd int, a, b string) error {
	if renameat2 != nil {
		return renameat2(dirfd, a, dirfd, b, unix.RENAME_EXCHANGE)
	}
	return unix.Renameat2(dirfd, a, dirfd, b, unix.RENAME_EXCHANGE)
}
