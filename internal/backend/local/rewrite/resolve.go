//go:build linux

package rewrite

import (
	"os"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/backend/local/ident"
	"github.com/plangate-gc/plangate-gc/internal/eintr"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
)

// openDir opens the root-relative directory dir ("" for the root itself,
// duplicated) one component at a time with O_NOFOLLOW|O_DIRECTORY,
// confirming that each step is on the root's mount. The descriptor is
// readable, so it can be fsynced.
func openDir(rootfd int, dir string) (int, error) {
	rootMnt, err := mountOf(rootfd)
	if err != nil {
		return -1, err
	}
	cur, err := eintr.Value(func() (int, error) { return unix.Dup(rootfd) })
	if err != nil {
		return -1, err
	}
	if dir == "" {
		return cur, nil
	}
	for _, c := range strings.Split(dir, "/") {
		fd, err := eintr.Value(func() (int, error) {
			return unix.Openat(cur, c, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		})
		if err != nil {
			err = kindOr(cur, c, err)
			unix.Close(cur)
			return -1, err
		}
		unix.Close(cur)
		cur = fd
		mnt, err := mountOf(cur)
		if err == nil && mnt != rootMnt {
			err = fserr.ErrOtherMount
		}
		if err != nil {
			unix.Close(cur)
			return -1, err
		}
	}
	return cur, nil
}

func mountOf(fd int) (uint64, error) {
	var stx unix.Statx_t
	err := eintr.Retry(func() error { return unix.Statx(fd, "", unix.AT_EMPTY_PATH, unix.STATX_MNT_ID, &stx) })
	return stx.Mnt_id, err
}

// kindOr turns a failed open into what the entry is: os.ErrNotExist for a
// missing one, a *fserr.KindError for a symlink or another wrong kind.
func kindOr(dirfd int, name string, err error) error {
	if err == unix.ENOENT {
		return &os.PathError{Op: "open", Path: name, Err: os.ErrNotExist}
	}
	if err == unix.ELOOP || err == unix.ENOTDIR || err == unix.ENXIO {
		var st unix.Stat_t
		if unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil {
			want := fserr.ErrNotRegular
			if err == unix.ENOTDIR {
				want = fserr.ErrNotDir
			}
			return &fserr.KindError{Kind: fserr.KindOf(st.Mode), Want: want}
		}
	}
	return err
}

// identOf describes dirfd/name (AT_EMPTY_PATH: dirfd itself); it must be
// a regular file on the root's mount.
func identOf(dirfd int, name string, flags int, rootfd int) (Ident, error) {
	// The root's mount first: Replace's identity check is then the last
	// system call before the rename (the package doc's window).
	rootMnt, err := mountOf(rootfd)
	if err != nil {
		return Ident{}, fserr.ErrOtherMount
	}
	var stx unix.Statx_t
	err = eintr.Retry(func() error {
		return unix.Statx(dirfd, name, flags|unix.AT_STATX_SYNC_AS_STAT, ident.StatxMask, &stx)
	})
	if err != nil {
		return Ident{}, kindOr(dirfd, name, err)
	}
	if mode := uint32(stx.Mode); mode&unix.S_IFMT != unix.S_IFREG {
		return Ident{}, &fserr.KindError{Kind: fserr.KindOf(mode), Want: fserr.ErrNotRegular}
	}
	if rootMnt != stx.Mnt_id {
		return Ident{}, fserr.ErrOtherMount
	}
	return Ident{Dev: unix.Mkdev(stx.Dev_major, stx.Dev_minor), Ino: stx.Ino, Size: int64(stx.Size),
		MtimeNs: nsOf(stx.Mtime), CtimeNs: nsOf(stx.Ctime), Mode: uint32(stx.Mode) & 0o7777, UID: stx.Uid, GID: stx.Gid}, nil
}

func nsOf(ts unix.StatxTimestamp) int64 { return ts.Sec*1e9 + int64(ts.Nsec) }

// compare returns what differs between the identity read and the file
// now, or nil.
func compare(was, now Ident) *fserr.ChangedError {
	var ch fserr.ChangedError
	if was.Dev != now.Dev || was.Ino != now.Ino {
		ch.Fields = append(ch.Fields, fserr.FieldInode)
	}
	if was.Size != now.Size {
		ch.Fields = append(ch.Fields, fserr.FieldSize)
		ch.OldSize, ch.NewSize = was.Size, now.Size
	}
	if was.MtimeNs != now.MtimeNs {
		ch.Fields = append(ch.Fields, fserr.FieldMtime)
	}
	if was.CtimeNs != now.CtimeNs {
		ch.Fields = append(ch.Fields, fserr.FieldCtime)
	}
	if ch.Fields == nil {
		return nil
	}
	return &ch
}
