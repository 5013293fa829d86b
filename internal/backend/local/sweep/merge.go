//go:build linux

package sweep

import (
	"os"

	"github.com/plangate-gc/plangate-gc/internal/eintr"

	"golang.org/x/sys/unix"
)

// maxMergeDepth bounds how deep mergeBack follows directories whose names
// were taken on both sides; what lies deeper stays where it is.
const maxMergeDepth = 64

// mergeBack puts back what a held directory (private in dirfd) still
// holds when its name was taken meanwhile by another directory (a
// writer's mkdir -p while it was held, or after a killed run): each entry
// is renamed to the same name in that directory, never over anything
// (RENAME_NOREPLACE); an entry whose name is taken there too is merged
// the same way when both are directories, else it stays. The emptied
// private directory is then removed. It reports whether private is gone,
// everything being back under its own path (decision 288).
//
// What took the name must be a directory reached without a symlink
// (O_NOFOLLOW) and hold no .git (a nested repository is never entered,
// SPEC B4); a rename never crosses a mount (EXDEV), so nothing leaves the
// root's. Every file keeps its inode: its identity is untouched.
func mergeBack(dirfd int, private, name string) bool {
	return merge(dirfd, private, name, false)
}

// mergeNewer is mergeBack for the fresh directory of an exchange, just
// exchanged back (putBackExchanged): what it holds is what the paths led
// to last, so where a name is taken in the held directory by a file (any
// entry but a directory) and the fresh directory's entry there is no
// directory either, the two are exchanged (renameat2 RENAME_EXCHANGE):
// the writer's entry takes the path, and the older one stays in the
// fresh directory under the private name (decision 360). Nothing is
// removed or overwritten; a clash that involves a directory is merged
// or stays, as in mergeBack.
func mergeNewer(dirfd int, private, name string) bool {
	return merge(dirfd, private, name, true)
}

func merge(dirfd int, private, name string, newer bool) bool {
	src, err := openDir(dirfd, private, unix.O_RDONLY)
	if err != nil {
		return false
	}
	dst, err := openDir(dirfd, name, unix.O_PATH)
	if err != nil {
		unix.Close(src)
		return false
	}
	mergeInto(src, dst, 0, newer)
	unix.Close(src)
	unix.Close(dst)
	return eintr.Retry(func() error { return unix.Unlinkat(dirfd, private, unix.AT_REMOVEDIR) }) == nil
}

// openDir opens name in dirfd as a directory (flags plus O_DIRECTORY,
// O_NOFOLLOW, O_CLOEXEC) that holds no .git entry.
func openDir(dirfd int, name string, flags int) (int, error) {
	fd, err := eintr.Value(func() (int, error) {
		return unix.Openat(dirfd, name, flags|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return -1, err
	}
	var st unix.Stat_t
	if err := unix.Fstatat(fd, ".git", &st, unix.AT_SYMLINK_NOFOLLOW); err != unix.ENOENT {
		unix.Close(fd)
		return -1, unix.EEXIST // a repository of its own, or it cannot tell
	}
	return fd, nil
}

// mergeInto renames every entry of the directory src (read with
// getdents) into dst under the same name, never over anything, and
// merges a subdirectory whose name is taken by a directory in dst; with
// newer, a non-directory whose name is taken by a non-directory in dst
// is exchanged with it (mergeNewer).
func mergeInto(src, dst, depth int, newer bool) {
	f := os.NewFile(uintptr(dupCloexec(src)), "")
	if f == nil {
		return
	}
	names, _ := f.Readdirnames(-1)
	f.Close()
	for _, n := range names {
		err := eintr.Retry(func() error { return renameBetween(src, n, dst, n) })
		if err != unix.EEXIST {
			continue
		}
		if newer && !isDirAt(src, n) && !isDirAt(dst, n) {
			eintr.Retry(func() error { return renameExchangeBetween(src, n, dst, n) }) //nolint:errcheck // not exchanged: it stays, as in mergeBack
			continue
		}
		if depth >= maxMergeDepth {
			continue
		}
		s, err := openDir(src, n, unix.O_RDONLY)
		if err != nil {
			continue
		}
		if d, err := openDir(dst, n, unix.O_PATH); err == nil {
			mergeInto(s, d, depth+1, newer)
			unix.Close(d)
			eintr.Retry(func() error { return unix.Unlinkat(src, n, unix.AT_REMOVEDIR) }) // emptied, or it stays
		}
		unix.Close(s)
	}
}

// renameBetween is renameat2(RENAME_NOREPLACE) from one directory to
// another (renameat2 as the tests may replace it).
func renameBetween(from int, old string, to int, new string) error {
	if renameat2 != nil {
		return renameat2(from, old, to, new, unix.RENAME_NOREPLACE)
	}
	return unix.Renameat2(from, old, to, new, unix.RENAME_NOREPLACE)
}

// isDirAt reports whether name in dirfd is a directory (not followed),
// and true when it cannot tell, so that nothing is exchanged then.
func isDirAt(dirfd int, name string) bool {
	var st unix.Stat_t
	err := eintr.Retry(func() error { return unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) })
	return err != nil || st.Mode&unix.S_IFMT == unix.S_IFDIR
}

// renameExchangeBetween is renameat2(RENAME_EXCHANGE) of two names in two
// directories (renameat2 as the tests may replace it).
func renameExchangeBetween(from int, old string, to int, new string) error {
	if renameat2 != nil {
		return renameat2(from, old, to, new, unix.RENAME_EXCHANGE)
	}
	return unix.Renameat2(from, old, to, new, unix.RENAME_EXCHANGE)
}

// dupCloexec duplicates fd (close-on-exec), -1 on failure, so that an
// *os.File may own and close the copy.
func dupCloexec(fd int) int {
	n, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return -1
	}
	return n
}
