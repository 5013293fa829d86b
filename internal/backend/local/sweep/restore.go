//go:build linux

package sweep

import (
	"slices"
	"strings"

	"github.com/plangate-gc/plangate-gc/internal/eintr"
	"github.com/plangate-gc/plangate-gc/internal/fserr"

	"golang.org/x/sys/unix"
)

// Restore puts back files and held directories that an interrupted
// Delete left under their private names: each path is root-relative and
// ends in PrivatePrefix+NAME, and is renamed to NAME in the same
// directory, resolved as safely as Delete resolves it (no symlinks, no
// other mount). It never overwrites: when NAME exists, the leftover stays
// and the error's cause is fserr.ErrNameTaken — except that a directory
// is put back as Delete puts back a held one (putBack: removed when
// empty, else merged into the directory that took its name, entry by
// entry). Only regular files and directories are put back. Restored
// paths are listed in Report.Restored, vanished ones in Report.Gone,
// failures in Report.Errors (Op fserr.OpRestore).
func Restore(rootfd int, paths []string) Report {
	ps := slices.Clone(paths)
	slices.Sort(ps)
	var rep Report
	d := newDeleter(rootfd)
	for _, p := range ps {
		switch isGone, err := d.restoreOne(p); {
		case err != nil:
			rep.Errors = append(rep.Errors, fserr.New(fserr.OpRestore, p, err))
		case isGone:
			rep.Gone = append(rep.Gone, p)
		default:
			rep.Restored = append(rep.Restored, p)
		}
	}
	sortErrors(rep.Errors)
	return rep
}

// restoreOne renames one leftover back to its original name.
func (d *deleter) restoreOne(p string) (isGone bool, err error) {
	dir, private, err := splitPath(p)
	if err != nil {
		return false, err
	}
	name, ok := strings.CutPrefix(private, PrivatePrefix)
	if !ok || name == "" || name == "." || name == ".." {
		return false, fserr.ErrBadPath
	}
	dirfd, err := d.openParent(dir)
	if err == errGone {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	if dirfd != d.rootfd {
		defer unix.Close(dirfd)
	}
	var stx unix.Statx_t
	err = eintr.Retry(func() error {
		return unix.Statx(dirfd, private, unix.AT_SYMLINK_NOFOLLOW, unix.STATX_TYPE|unix.STATX_MNT_ID, &stx)
	})
	mode := uint32(stx.Mode) & unix.S_IFMT
	switch {
	case err == unix.ENOENT:
		return true, nil
	case err != nil:
		return false, err
	case mode != unix.S_IFREG && mode != unix.S_IFDIR:
		return false, &fserr.KindError{Kind: fserr.KindOf(uint32(stx.Mode)), Want: fserr.ErrNotRegular}
	case !d.onRootMount(&stx):
		return false, fserr.ErrOtherMount
	case mode == unix.S_IFDIR:
		// A directory held whole (Options.Hold); its name taken, it is
		// removed when empty, else merged back (putBack).
		return false, putBack(dirfd, private, name)
	}
	err = eintr.Retry(func() error { return renameStrings(dirfd, private, name) })
	if err == unix.ENOSYS || err == unix.EINVAL {
		// No RENAME_NOREPLACE here: link (which never replaces) and
		// drop the private name.
		err = eintr.Retry(func() error { return unix.Linkat(dirfd, private, dirfd, name, 0) })
		if err == nil {
			err = eintr.Retry(func() error { return unix.Unlinkat(dirfd, private, 0) })
		}
	}
	switch err {
	case nil:
		return false, nil
	case unix.ENOENT:
		return true, nil
	case unix.EEXIST:
		return false, fserr.ErrNameTaken
	}
	return false, err
}
