//go:build linux

package journal

import (
	"context"
	"errors"
	"io"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/backend/record"
	"github.com/plangate-gc/plangate-gc/internal/eintr"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
)

// List returns the journals beneath the root (Path, AltPath): every
// entry at their names, of whatever kind (Read refuses one that is no
// regular file), but a foreign one (Foreign). A directory that is not there, or is no real
// directory, holds none.
func (j *Journals) List(context.Context) ([]record.Unit, error) {
	var units []record.Unit
	for _, rel := range []string{Path, AltPath} {
		if slices.Contains(j.foreign, rel) {
			continue // tracked by git: no journal of this root's (Foreign)
		}
		dirfd, err := eintr.Value(func() (int, error) {
			return unix.Openat(j.rootfd, path.Dir(rel), unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		})
		if errnoIn(err, unix.ENOENT, unix.ENOTDIR, unix.ELOOP) {
			continue
		}
		if err == nil {
			var st unix.Stat_t
			err = unix.Fstatat(dirfd, path.Base(rel), &st, unix.AT_SYMLINK_NOFOLLOW)
			unix.Close(dirfd)
			if errors.Is(err, unix.ENOENT) {
				continue
			}
		}
		units = append(units, unit(rel, ""))
	}
	return units, nil
}

// Read opens one journal, never through a symlink: a journal that is
// not a regular file or cannot be opened is an *fserr.Error with Op
// fserr.OpJournal, and is left in place.
func (j *Journals) Read(_ context.Context, u record.Unit) (io.ReadCloser, record.Unit, error) {
	rel := u.Name
	dirfd, err := eintr.Value(func() (int, error) {
		return unix.Openat(j.rootfd, path.Dir(rel), unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, u, fserr.New(fserr.OpJournal, rel, err)
	}
	defer unix.Close(dirfd)
	fd, err := eintr.Value(func() (int, error) {
		return unix.Openat(dirfd, path.Base(rel), unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	})
	if errors.Is(err, unix.ELOOP) {
		err = &fserr.KindError{Kind: fserr.KindOf(unix.S_IFLNK), Want: fserr.ErrNotRegular}
	}
	if err != nil {
		return nil, u, fserr.New(fserr.OpJournal, rel, err)
	}
	f := os.NewFile(uintptr(fd), rel)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		f.Close()
		return nil, u, fserr.New(fserr.OpJournal, rel, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		f.Close()
		return nil, u, fserr.New(fserr.OpJournal, rel, &fserr.KindError{Kind: fserr.KindOf(st.Mode), Want: fserr.ErrNotRegular})
	}
	return f, unit(rel, fileTag(&st)), nil
}

// Unchanged says, for each intent, whether its path (or, but for a temp,
// a place New's held names) is still the regular file of the intent:
// device, inode, size and mtime (not ctime, which a rename changes). It
// reads only; nothing below the root is followed.
func (j *Journals) Unchanged(_ context.Context, ins []record.Intent) ([]bool, error) {
	var look looker
	defer look.close()
	same := make([]bool, len(ins))
	for i, in := range ins {
		id, _ := parseTag(in.Tag) // Valid when read
		same[i] = look.present(j.rootfd, in.Key, id) ||
			in.Op != record.Temp && j.held != nil && slices.ContainsFunc(j.held(in.Key), func(h string) bool { return look.present(j.rootfd, h, id) })
	}
	return same, nil
}

// Aside is the first name "<rel>.unreadable-<n>" (n from 1) that no
// entry of the journal's directory has, or "" when none of the first
// 1,000 is free or the directory cannot be read.
func (j *Journals) Aside(_ context.Context, u record.Unit) string {
	rel := u.Name
	dirfd, err := eintr.Value(func() (int, error) {
		return unix.Openat(j.rootfd, path.Dir(rel), unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return ""
	}
	defer unix.Close(dirfd)
	for n := 1; n <= 1000; n++ {
		name := rel + ".unreadable-" + strconv.Itoa(n)
		var st unix.Stat_t
		if err := unix.Fstatat(dirfd, path.Base(name), &st, unix.AT_SYMLINK_NOFOLLOW); errors.Is(err, unix.ENOENT) {
			return name
		} else if err != nil {
			return ""
		}
	}
	return ""
}

// Remove unlinks the journal if it is still the file read or written
// (same device and inode); one already gone is fine.
func (j *Journals) Remove(_ context.Context, u record.Unit) error {
	return j.removeIf(u, "")
}

// SetAside renames the journal to aside (in the same directory, never
// over another file) if it is still the file read; fserr.ErrNameTaken
// when no name was free.
func (j *Journals) SetAside(_ context.Context, u record.Unit, aside string) error {
	if aside == "" {
		return fserr.New(fserr.OpJournal, u.Name, fserr.ErrNameTaken)
	}
	return j.removeIf(u, aside)
}

// removeIf unlinks u's file if it is still the file (dev, ino) of its
// tag, or renames it to aside when that is not empty.
func (j *Journals) removeIf(u record.Unit, aside string) error {
	rel := u.Name
	dirfd, err := eintr.Value(func() (int, error) {
		return unix.Openat(j.rootfd, path.Dir(rel), unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return fserr.New(fserr.OpJournal, rel, err)
	}
	defer unix.Close(dirfd)
	var st unix.Stat_t
	switch err := unix.Fstatat(dirfd, path.Base(rel), &st, unix.AT_SYMLINK_NOFOLLOW); {
	case errors.Is(err, unix.ENOENT):
		return nil
	case err != nil:
		return fserr.New(fserr.OpJournal, rel, err)
	case fileTag(&st) != u.Tag:
		return fserr.New(fserr.OpJournal, rel, fserr.ErrChanged)
	}
	if aside != "" {
		err = eintr.Retry(func() error {
			return unix.Renameat2(dirfd, path.Base(rel), dirfd, path.Base(aside), unix.RENAME_NOREPLACE)
		})
	} else if err = eintr.Retry(func() error { return unix.Unlinkat(dirfd, path.Base(rel), 0) }); errors.Is(err, unix.ENOENT) {
		err = nil
	}
	if err != nil {
		return fserr.New(fserr.OpJournal, rel, err)
	}
	return nil
}

// RemoveTemps unlinks the copies killed rewrites left (record.Recovered
// Temps), each only while it is still exactly the journaled file, and
// returns the paths removed, sorted. Call it holding the root's lock
// (--force).
func RemoveTemps(rootfd int, temps []record.Intent) (removed []string, err error) {
	var errs []error
	for _, in := range temps {
		e := unlinkIf(rootfd, in)
		switch {
		case e == nil:
			removed = append(removed, in.Key)
		case !errors.Is(e, unix.ENOENT):
			errs = append(errs, fserr.New(fserr.OpDelete, in.Key, e))
		}
	}
	slices.Sort(removed)
	return slices.Compact(removed), errors.Join(errs...)
}

// unlinkIf unlinks in.Key if it is still the regular file of the
// intent; fserr.ErrChanged otherwise.
func unlinkIf(rootfd int, in record.Intent) error {
	dir, name := path.Split(in.Key)
	dfd, err := walk(rootfd, strings.TrimSuffix(dir, "/"))
	if err != nil {
		return err
	}
	defer unix.Close(dfd)
	var st unix.Stat_t
	if err := unix.Fstatat(dfd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return err
	}
	if id, ok := parseTag(in.Tag); !ok || !id.is(&st) {
		return fserr.ErrChanged
	}
	return eintr.Retry(func() error { return unix.Unlinkat(dfd, name, 0) })
}

// is reports whether st is the regular file id names.
func (id identity) is(st *unix.Stat_t) bool {
	return st.Mode&unix.S_IFMT == unix.S_IFREG && uint64(st.Dev) == id.dev && st.Ino == id.ino &&
		st.Size == id.size && st.Mtim.Sec*1e9+st.Mtim.Nsec == id.mtimeNs
}

// looker stats root-relative paths without following any symlink,
// keeping the last directory it opened (intents come in path order).
type looker struct {
	dir string
	fd  int
	ok  bool
}

// present reports whether p is still the regular file id.
func (l *looker) present(rootfd int, p string, id identity) bool {
	dir, name := path.Split(p)
	dir = strings.TrimSuffix(dir, "/")
	if !l.ok || l.dir != dir {
		l.close()
		fd, err := walk(rootfd, dir)
		if err != nil {
			return false
		}
		l.dir, l.fd, l.ok = dir, fd, true
	}
	var st unix.Stat_t
	if unix.Fstatat(l.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
		return false
	}
	return id.is(&st)
}

func (l *looker) close() {
	if l.ok {
		unix.Close(l.fd)
		l.ok = false
	}
}

// walk opens dir below rootfd one component at a time, never following
// a symlink.
func walk(rootfd int, dir string) (int, error) {
	fd, err := unix.Openat(rootfd, ".", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil || dir == "" {
		return fd, err
	}
	for c := range strings.SplitSeq(dir, "/") {
		next, err := unix.Openat(fd, c, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		unix.Close(fd)
		if err != nil {
			return -1, err
		}
		fd = next
	}
	return fd, nil
}
