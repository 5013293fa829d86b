//go:build linux

package sweep

import (
	"os"
	"strings"

	"github.com/plangate-gc/plangate-gc/internal/eintr"

	"golang.org/x/sys/unix"
)

// HeldFiles looks at the root-relative path private, the private name a
// killed Delete may have held a directory under (Options.Hold). It
// reports whether it is such a directory — reached without a symlink,
// on the root's mount, holding no .git (decision 289) — and counts the
// regular files below it, calling visit, when set, with each one's
// original path (private's last component without PrivatePrefix), in
// no particular order. Nothing is followed: a symlink, another mount or
// a nested repository below is neither entered nor counted, nor what
// lies deeper than maxMergeDepth (where Restore stops too).
func HeldFiles(rootfd int, private string, visit func(orig string)) (files int, ok bool) {
	dir, name, err := splitPath(private)
	orig, isPrivate := strings.CutPrefix(name, PrivatePrefix)
	if err != nil || !isPrivate || orig == "" || orig == "." || orig == ".." {
		return 0, false
	}
	d := newDeleter(rootfd)
	dirfd, err := d.openParent(dir)
	if err != nil {
		return 0, false
	}
	if dirfd != rootfd {
		defer unix.Close(dirfd)
	}
	if !d.dirOnRootMount(dirfd, name) {
		return 0, false
	}
	fd, err := openDir(dirfd, name, unix.O_RDONLY)
	if err != nil {
		return 0, false
	}
	defer unix.Close(fd)
	return d.countFiles(fd, joinPath(dir, orig), visit, 0), true
}

// dirOnRootMount reports whether name in dirfd is a directory (not
// followed) on the root's mount.
func (d *deleter) dirOnRootMount(dirfd int, name string) bool {
	var stx unix.Statx_t
	err := eintr.Retry(func() error {
		return unix.Statx(dirfd, name, unix.AT_SYMLINK_NOFOLLOW, unix.STATX_TYPE|unix.STATX_MNT_ID, &stx)
	})
	return err == nil && uint32(stx.Mode)&unix.S_IFMT == unix.S_IFDIR && d.onRootMount(&stx)
}

// countFiles counts the regular files below the open directory fd,
// whose original root-relative path is rel (HeldFiles).
func (d *deleter) countFiles(fd int, rel string, visit func(string), depth int) int {
	f := os.NewFile(uintptr(dupCloexec(fd)), "")
	if f == nil {
		return 0
	}
	names, _ := f.Readdirnames(-1)
	f.Close()
	n := 0
	for _, name := range names {
		var stx unix.Statx_t
		err := eintr.Retry(func() error {
			return unix.Statx(fd, name, unix.AT_SYMLINK_NOFOLLOW, unix.STATX_TYPE|unix.STATX_MNT_ID, &stx)
		})
		if err != nil || !d.onRootMount(&stx) {
			continue
		}
		switch uint32(stx.Mode) & unix.S_IFMT {
		case unix.S_IFREG:
			n++
			if visit != nil {
				visit(rel + "/" + name)
			}
		case unix.S_IFDIR:
			if depth >= maxMergeDepth {
				continue
			}
			if sub, err := openDir(fd, name, unix.O_RDONLY); err == nil {
				n += d.countFiles(sub, rel+"/"+name, visit, depth+1)
				unix.Close(sub)
			}
		}
	}
	return n
}
