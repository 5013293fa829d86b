//go:build linux

package local

import (
	"errors"
	"path"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/eintr"
)

// Why a symbolic link leads nowhere a run can use: the kernel's own
// errors, named so that the run reads them without the system's
// constants (and ErrOutside).
var (
	ErrDangling error = unix.ENOENT
	ErrLoop     error = unix.ELOOP
	ErrNotDir   error = unix.ENOTDIR
)

// openat2 is unix.Openat2, replaceable so a test can play a kernel
// without it.
var openat2 = unix.Openat2

// LinkTarget reads the single source src when it is a symlink and returns
// its text (link, "" when src is no symlink) and the root-relative path of
// what it points to, and whether that is a directory. err is ENOENT (ErrDangling) for a
// dangling link, ErrOutside for one that leaves the root, ELOOP (ErrLoop) for a
// loop, ENOTDIR (ErrNotDir) when a component is no directory, or why the target could
// not be decided.
func LinkTarget(rootFD int, src string) (target, link string, isDir bool, err error) {
	dir, name := path.Split(src)
	dir = strings.TrimSuffix(dir, "/")
	how := unix.OpenHow{Flags: unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS}
	dfd, err := eintr.Value(func() (int, error) { return openat2(rootFD, dir, &how) })
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) || errors.Is(err, unix.EINVAL) {
		dfd, err = openChain(rootFD, strings.Split(dir, "/"))
	}
	if err != nil {
		return "", "", false, nil // no directory, so no link: nothing to resolve
	}
	buf := make([]byte, unix.PathMax)
	n, err := eintr.Value(func() (int, error) { return unix.Readlinkat(dfd, name, buf) })
	if err != nil {
		unix.Close(dfd)
		return "", "", false, nil // not a symlink (or absent): nothing to resolve
	}
	link = string(buf[:n])
	r, err := newResolver(rootFD, dfd, dir)
	if err != nil {
		return "", link, false, err
	}
	defer r.close()
	target, isDir, err = r.resolve(link, true)
	return target, link, isDir, err
}

// openChain opens the directory dirs below fd one component at a time
// without following symlinks, where openat2 is unavailable.
func openChain(fd int, dirs []string) (int, error) {
	cur := fd
	for _, d := range dirs {
		next, err := eintr.Value(func() (int, error) {
			return unix.Openat(cur, d, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		})
		if cur != fd {
			unix.Close(cur)
		}
		if err != nil {
			return -1, err
		}
		cur = next
	}
	return cur, nil
}
