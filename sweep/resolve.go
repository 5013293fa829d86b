package sweep

import (
	"errors"
	"fmt"
	"strings"

	"github.com/plangate-gc/plangate-gc/internal/fsmsg"

	"golang.org/x/sys/unix"
)

// errGone reports that a parent directory no longer exists, so the target
// is already gone.
var errGone = errors.New("gone")

// openat2 is unix.Openat2, replaceable so tests can play a kernel or
// sandbox without it.
var openat2 = unix.Openat2

// deleter holds the root descriptor and whether openat2 is still worth
// trying during one Delete call.
type deleter struct {
	rootfd     int
	useOpenat2 bool
}

// openParent returns a descriptor of the directory dirs (components below
// the root) without following any symlink on the way. It returns the root
// descriptor itself for a file directly below the root (the caller must
// not close it), errGone when a component is missing, or an error whose
// text names the component that is not a plain directory.
//
// openat2 is tried first. Where it is unavailable (ENOSYS on old kernels,
// EPERM from seccomp filters, EINVAL/E2BIG for unknown flags) this and all
// later targets use the openat chain. Any other openat2 failure is
// re-resolved with the chain too, which is equally safe and names the
// offending component, so messages do not depend on the kernel.
func (d *deleter) openParent(dirs []string) (int, error) {
	if len(dirs) == 0 {
		return d.rootfd, nil
	}
	if d.useOpenat2 {
		how := unix.OpenHow{
			Flags:   unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
			Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
		}
		rel := strings.Join(dirs, "/")
		for try := 0; try < 8; try++ {
			fd, err := openat2(d.rootfd, rel, &how)
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
			case err == unix.ENOSYS || err == unix.EPERM || err == unix.EINVAL || err == unix.E2BIG:
				d.useOpenat2 = false
			}
			break
		}
	}
	return d.openChain(dirs)
}

// openChain resolves dirs with one openat(O_PATH|O_NOFOLLOW|O_DIRECTORY)
// per component, starting at the root descriptor, and confirms with fstat
// that each step really is a directory.
func (d *deleter) openChain(dirs []string) (int, error) {
	cur := d.rootfd
	closeCur := func() {
		if cur != d.rootfd {
			unix.Close(cur)
		}
	}
	for i, c := range dirs {
		sofar := fsmsg.Printable(strings.Join(dirs[:i+1], "/"))
		var fd int
		var err error
		for {
			fd, err = unix.Openat(cur, c, unix.O_PATH|unix.O_NOFOLLOW|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
			if err != unix.EINTR {
				break
			}
		}
		if err != nil {
			defer closeCur()
			switch {
			case errors.Is(err, unix.ENOENT):
				return -1, errGone
			case errors.Is(err, unix.ELOOP), errors.Is(err, unix.ENOTDIR):
				var st unix.Stat_t
				if serr := unix.Fstatat(cur, c, &st, unix.AT_SYMLINK_NOFOLLOW); serr != nil {
					if errors.Is(serr, unix.ENOENT) {
						return -1, errGone
					}
					return -1, fmt.Errorf("parent %s is not a directory", sofar)
				}
				return -1, notDir(sofar, st.Mode)
			}
			return -1, fmt.Errorf("cannot open parent directory %s: %s", sofar, fsmsg.ErrText(err))
		}
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR {
			unix.Close(fd)
			defer closeCur()
			if err != nil {
				return -1, fmt.Errorf("cannot stat parent directory %s: %s", sofar, fsmsg.ErrText(err))
			}
			return -1, notDir(sofar, st.Mode)
		}
		closeCur()
		cur = fd
	}
	if testHookResolver != nil {
		testHookResolver("chain")
	}
	return cur, nil
}

// notDir words a parent component that is no longer a plain directory.
func notDir(rel string, mode uint32) error {
	if mode&unix.S_IFMT == unix.S_IFLNK {
		return fmt.Errorf("parent %s is a symlink; not followed", rel)
	}
	return fmt.Errorf("parent %s is %s, not a directory", rel, fsmsg.Kind(mode))
}
