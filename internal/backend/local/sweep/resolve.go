//go:build linux

package sweep

import (
	"errors"
	"strings"
	"sync/atomic"

	"github.com/plangate-gc/plangate-gc/internal/eintr"
	"github.com/plangate-gc/plangate-gc/internal/fserr"

	"golang.org/x/sys/unix"
)

// errGone reports that a parent directory no longer exists, so the target
// is already gone.
var errGone = errors.New("gone")

// openat2 is unix.Openat2, replaceable so tests can play a kernel or
// sandbox without it.
var openat2 = unix.Openat2

// deleter holds the root descriptor and its mount, and what this run has
// learnt about the kernel: whether openat2 and renameat2 are worth trying.
// Its workers share it: the root fields never change after newDeleter,
// and the two lessons are atomic.
type deleter struct {
	rootfd    int
	rootDev   uint64
	rootMnt   uint64      // statx mount id, 0 when unknown
	noOpenat2 atomic.Bool // openat2 refused (ENOSYS, EPERM, EINVAL, E2BIG)
	noRename2 atomic.Bool // renameat2(RENAME_NOREPLACE) refused
	links     links       // files with other links the run unlinked a name of
}

// newDeleter records the root's device and mount id, against which every
// directory and file is compared.
func newDeleter(rootfd int) *deleter {
	d := &deleter{rootfd: rootfd}
	d.noOpenat2.Store(disableOpenat2)
	var stx unix.Statx_t
	err := eintr.Retry(func() error {
		return unix.Statx(rootfd, "", unix.AT_EMPTY_PATH, unix.STATX_TYPE|unix.STATX_MNT_ID, &stx)
	})
	if err == nil {
		d.rootDev = unix.Mkdev(stx.Dev_major, stx.Dev_minor)
		d.rootMnt = mntOf(&stx)
	}
	return d
}

// mntOf is the statx mount id, or 0 when the kernel did not report one.
func mntOf(stx *unix.Statx_t) uint64 {
	if stx.Mask&unix.STATX_MNT_ID == 0 {
		return 0
	}
	return stx.Mnt_id
}

// onRootMount compares the device always and the mount id when both are
// known (a bind mount of the same file system differs only in the latter).
func (d *deleter) onRootMount(stx *unix.Statx_t) bool {
	if unix.Mkdev(stx.Dev_major, stx.Dev_minor) != d.rootDev {
		return false
	}
	return d.rootMnt == 0 || mntOf(stx) == 0 || mntOf(stx) == d.rootMnt
}

// parent is the directory a run of targets lives in. Targets are handled
// in path order, so the targets of one directory come one after another;
// their parent is resolved once, for the first of them, and its descriptor
// (or its resolution failure) serves the rest of the run, at most
// maxRun targets. See the package comment, "One descriptor per
// directory", for why this keeps SPEC B2.
type parent struct {
	dir  string // root-relative path, "" for the root itself
	fd   int    // valid when set and err == nil
	err  error  // resolution failure, shared by every target of the run
	set  bool
	base int // the descriptor dir was resolved from, never closed here
}

// parentOf returns a descriptor of dir, reusing p when it already holds
// dir and resolving it (after releasing p's previous descriptor)
// otherwise. h, when not nil, is the held directory dir lies in (or is):
// dir is then resolved from it, below it only.
func (d *deleter) parentOf(p *parent, dir string, h *hold) (int, error) {
	if p.set && p.dir == dir {
		return p.fd, p.err
	}
	d.release(p)
	base, rel := d.rootfd, dir
	if h != nil {
		base, rel = h.fd, strings.TrimPrefix(strings.TrimPrefix(dir, h.path), "/")
	}
	fd, err := d.openBeneath(base, rel)
	*p = parent{dir: dir, fd: fd, err: err, set: true, base: base}
	return fd, err
}

// release closes p's descriptor, unless it is the one it was resolved
// from (the root's or a held directory's), and empties p, so that the
// next target resolves its parent afresh.
func (d *deleter) release(p *parent) {
	if p.set && p.err == nil && p.fd != p.base {
		unix.Close(p.fd)
	}
	*p = parent{}
}

// openParent returns a descriptor of the directory dir (a root-relative
// path, "" for the root) without following any symlink or entering
// another mount. It returns the root descriptor itself for "" (the caller
// must not close it), errGone when a component is missing,
// fserr.ErrOtherMount for a mount crossing, a *fserr.KindError when a
// component is not a directory, or an errno.
//
// openat2(RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS|RESOLVE_NO_MAGICLINKS|
// RESOLVE_NO_XDEV) is tried first. Where it is unavailable (ENOSYS on old
// kernels, EPERM from seccomp filters, EINVAL/E2BIG for unknown flags) this
// and all later targets use the openat chain. Any other openat2 failure is
// re-resolved with the chain too, which is equally safe and yields a
// precise cause, so errors do not depend on the kernel.
func (d *deleter) openParent(dir string) (int, error) { return d.openBeneath(d.rootfd, dir) }

// openBeneath is openParent from the directory descriptor base (the root's
// or a held directory's): dir is relative to it and resolved below it
// only; "" is base itself.
func (d *deleter) openBeneath(base int, dir string) (int, error) {
	if dir == "" {
		return base, nil
	}
	if !d.noOpenat2.Load() {
		how := unix.OpenHow{
			Flags: unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
			Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS |
				unix.RESOLVE_NO_XDEV,
		}
		for try := 0; try < 8; try++ {
			fd, err := openat2(base, dir, &how)
			switch {
			case err == nil:
				if testHookResolver != nil {
					testHookResolver("openat2")
				}
				return fd, nil
			case err == unix.EINTR || err == unix.EAGAIN:
				continue // EAGAIN: a concurrent rename; the kernel asks to retry
			case err == unix.ENOENT:
				return -1, errGone
			case err == unix.EXDEV:
				return -1, fserr.ErrOtherMount
			case err == unix.ENOSYS || err == unix.EPERM || err == unix.EINVAL || err == unix.E2BIG:
				d.noOpenat2.Store(true)
			}
			break
		}
	}
	return d.openChain(base, strings.Split(dir, "/"))
}

// openChain resolves dirs with one openat(O_PATH|O_NOFOLLOW|O_DIRECTORY)
// per component, starting at base, and confirms with statx that each
// step is a directory on the root's mount.
func (d *deleter) openChain(base int, dirs []string) (int, error) {
	cur := base
	closeCur := func() {
		if cur != base {
			unix.Close(cur)
		}
	}
	for _, c := range dirs {
		fd, err := eintr.Value(func() (int, error) {
			return unix.Openat(cur, c, unix.O_PATH|unix.O_NOFOLLOW|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		})
		if err != nil {
			defer closeCur()
			switch err {
			case unix.ENOENT:
				return -1, errGone
			case unix.ELOOP, unix.ENOTDIR:
				var st unix.Stat_t
				serr := eintr.Retry(func() error { return unix.Fstatat(cur, c, &st, unix.AT_SYMLINK_NOFOLLOW) })
				if serr == unix.ENOENT {
					return -1, errGone
				}
				if serr != nil {
					return -1, err
				}
				return -1, &fserr.KindError{Kind: fserr.KindOf(st.Mode), Want: fserr.ErrNotDir}
			}
			return -1, err
		}
		var stx unix.Statx_t
		err = eintr.Retry(func() error {
			return unix.Statx(fd, "", unix.AT_EMPTY_PATH, unix.STATX_TYPE|unix.STATX_MNT_ID, &stx)
		})
		switch {
		case err == nil && uint32(stx.Mode)&unix.S_IFMT != unix.S_IFDIR:
			err = &fserr.KindError{Kind: fserr.KindOf(uint32(stx.Mode)), Want: fserr.ErrNotDir}
		case err == nil && !d.onRootMount(&stx):
			err = fserr.ErrOtherMount
		}
		if err != nil {
			unix.Close(fd)
			closeCur()
			return -1, err
		}
		closeCur()
		cur = fd
	}
	if testHookResolver != nil {
		testHookResolver("chain")
	}
	return cur, nil
}
