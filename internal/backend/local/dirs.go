//go:build linux

package local

import (
	"path"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/eintr"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
)

// HeldDir is a directory below the root with its identity when it was
// judged and, when FD >= 0, an O_PATH descriptor held on it until it is
// removed: while it is open the inode cannot be freed and reused, so
// (Dev, Ino) names this directory and no other (a folder removed and made
// again may get the same inode number otherwise).
type HeldDir struct {
	Path     string
	Dev, Ino uint64
	FD       int // -1 when none is held
}

// HoldDirs opens each directory of rels below the root (never through a
// symlink) and keeps those on the root's device, in the order given,
// holding a descriptor on the first max of them when hold is set.
func HoldDirs(rootFD int, rels []string, hold bool, max int) []HeldDir {
	rootDev, _, err := devIno(rootFD)
	if err != nil {
		return nil
	}
	var out []HeldDir
	for _, rel := range rels {
		fd, ok := openDirNoFollow(rootFD, rel)
		if !ok {
			continue
		}
		dev, ino, err := devIno(fd)
		if err != nil || dev != rootDev {
			unix.Close(fd)
			continue
		}
		d := HeldDir{Path: rel, Dev: dev, Ino: ino, FD: fd}
		if !hold || len(out) >= max {
			unix.Close(fd)
			d.FD = -1
		}
		out = append(out, d)
	}
	return out
}

// devIno is the device and inode of the file open as fd.
func devIno(fd int) (dev, ino uint64, err error) {
	id, err := fdIdent(fd)
	return id.dev, id.ino, err
}

// Release closes the descriptor held on d, if any.
func (d *HeldDir) Release() {
	if d.FD >= 0 {
		unix.Close(d.FD)
		d.FD = -1
	}
}

// RemoveEmpty removes the held directory d when it is empty and still
// the directory judged (same dev and ino, reached without a symlink),
// with unlinkat(AT_REMOVEDIR) on its parent opened through the root
// descriptor: the kernel refuses a directory that is not empty. Only one
// whose descriptor was held since it was judged is removed.
func RemoveEmpty(rootFD int, d HeldDir) bool {
	if d.FD < 0 {
		return false
	}
	parent, name := path.Split(d.Path)
	pfd, ok := openDirNoFollow(rootFD, strings.TrimSuffix(parent, "/"))
	if !ok {
		return false
	}
	defer unix.Close(pfd)
	var st unix.Stat_t
	err := eintr.Retry(func() error { return unix.Fstatat(pfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) })
	if err != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR || st.Dev != d.Dev || st.Ino != d.Ino {
		return false
	}
	return eintr.Retry(func() error { return unix.Unlinkat(pfd, name, unix.AT_REMOVEDIR) }) == nil
}

// openDirNoFollow opens the directory rel below the root (O_PATH), one
// component at a time, never following a symlink; the caller closes it.
func openDirNoFollow(rootFD int, rel string) (int, bool) {
	cur := rootFD
	for _, name := range strings.Split(rel, "/") {
		fd, err := eintr.Value(func() (int, error) {
			return unix.Openat(cur, name, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		})
		if cur != rootFD {
			unix.Close(cur)
		}
		if err != nil {
			return -1, false
		}
		cur = fd
	}
	return cur, true
}

// IsDir reports whether rel below the root is a directory reached
// without following a symlink.
func IsDir(rootFD int, rel string) bool {
	fd, ok := openDirNoFollow(rootFD, rel)
	if ok {
		unix.Close(fd)
	}
	return ok
}

// KindAt is what rel is below the root, never followed.
func KindAt(rootFD int, rel string) (fserr.Kind, error) {
	var st unix.Stat_t
	err := eintr.Retry(func() error { return unix.Fstatat(rootFD, rel, &st, unix.AT_SYMLINK_NOFOLLOW) })
	return fserr.KindOf(st.Mode), err
}
