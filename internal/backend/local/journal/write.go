//go:build linux

package journal

import (
	"errors"
	"path"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/eintr"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
)

// Journal is an open intent journal of the running --force run. Its
// methods are not safe for concurrent use.
type Journal struct {
	rel    string // Path or AltPath
	dirfd  int    // the journal's directory, O_RDONLY (fsync needs it)
	fd     int    // the journal, O_WRONLY|O_APPEND (O_RDWR for one appended to)
	synced bool   // the directory entry has been fsynced
	buf    []byte // "run" (and the header) not yet written
}

// Open opens the root's journal for appending, creating it (O_EXCL, mode
// 0600) when absent, at Path when .river is a directory of the root (not
// a symlink to one) that river gc may write in, else at AltPath. An
// existing journal is appended to (a killed run's intents stay until the
// record of this run is written) if it is a regular file with one link;
// anything else is refused. The caller holds the root's lock. Nothing is
// written to the disk before the first Intend. Errors are *fserr.Error
// with Op fserr.OpJournal.
func Open(rootfd int) (*Journal, error) {
	j, moveOn, err := openAt(rootfd, Path)
	if moveOn {
		j, _, err = openAt(rootfd, AltPath)
	}
	if err != nil {
		return nil, err
	}
	return j, nil
}

// errnoIn reports whether err is one of errnos.
func errnoIn(err error, errnos ...unix.Errno) bool {
	for _, e := range errnos {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// openAt opens (or creates) the journal rel without following a symlink.
// moveOn says the failure lets the journal go elsewhere: no real
// directory for it, or one river gc may not create a file in (a file of
// another kind at the journal's name is refused, not avoided).
func openAt(rootfd int, rel string) (_ *Journal, moveOn bool, _ error) {
	dirfd, err := eintr.Value(func() (int, error) {
		return unix.Openat(rootfd, path.Dir(rel), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, errnoIn(err, unix.ENOENT, unix.ENOTDIR, unix.ELOOP), fserr.New(fserr.OpJournal, rel, err)
	}
	j := &Journal{rel: rel, dirfd: dirfd, fd: -1}
	base := path.Base(rel)
	fd, err := eintr.Value(func() (int, error) {
		return unix.Openat(dirfd, base, unix.O_WRONLY|unix.O_APPEND|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	})
	if err == nil {
		j.fd, j.buf = fd, append([]byte(Header+"\n"), "run\n"...)
		return j, false, nil
	}
	if errnoIn(err, unix.EACCES, unix.EPERM, unix.EROFS) {
		unix.Close(dirfd)
		return nil, true, fserr.New(fserr.OpJournal, rel, err)
	}
	if errors.Is(err, unix.EEXIST) {
		fd, err = eintr.Value(func() (int, error) {
			return unix.Openat(dirfd, base, unix.O_RDWR|unix.O_APPEND|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		})
		var torn bool
		if err == nil {
			if torn, err = checkOurs(fd); err != nil {
				unix.Close(fd)
			}
		}
		if err == nil {
			// A killed run's write cut short ends the file without '\n':
			// the "run" of this one starts a line of its own, and the
			// reader knows the cut line by the "run" after it.
			j.fd, j.buf, j.synced = fd, []byte("run\n"), true
			if torn {
				j.buf = []byte("\nrun\n")
			}
			return j, false, nil
		}
	}
	unix.Close(dirfd)
	return nil, false, fserr.New(fserr.OpJournal, rel, err)
}

// checkOurs accepts a descriptor of a regular file with one link, and
// says whether it ends in a line cut short (not empty, last byte not
// '\n').
func checkOurs(fd int) (torn bool, _ error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return false, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return false, &fserr.KindError{Kind: fserr.KindOf(st.Mode), Want: fserr.ErrNotRegular}
	}
	if st.Nlink != 1 {
		return false, fserr.ErrLinked
	}
	if st.Size == 0 {
		return false, nil
	}
	last := []byte{0}
	if _, err := eintr.Value(func() (int, error) { return unix.Pread(fd, last, st.Size-1) }); err != nil {
		return false, err
	}
	return last[0] != '\n', nil
}

// Rel is the journal's root-relative name.
func (j *Journal) Rel() string { return j.rel }

// Intend appends the intents and makes them durable (fdatasync, and the
// directory's entry once for a new journal) before it returns: the caller
// acts on none of them unless it returns nil. A batch with an intent the
// reader could not read back (fserr.ErrNotJournalable: an unknown Op, a
// path that is not canonical, a line beyond maxLine) is written not at
// all.
func (j *Journal) Intend(batch []Intent) error {
	b := j.buf
	for _, in := range batch {
		n := len(b)
		b = in.appendLine(b)
		if !in.journalable(len(b) - n) {
			return fserr.New(fserr.OpJournal, in.Path, fserr.ErrNotJournalable)
		}
	}
	j.buf = nil
	return j.write(b)
}

// Done appends "done": the run's deletions and rewrites have ended.
func (j *Journal) Done() error { return j.write(append(j.buf, "done\n"...)) }

// write appends b whole and syncs.
func (j *Journal) write(b []byte) error {
	for len(b) > 0 {
		n, err := eintr.Value(func() (int, error) { return unix.Write(j.fd, b) })
		if err != nil {
			return fserr.New(fserr.OpJournal, j.rel, err)
		}
		b = b[n:]
	}
	if err := eintr.Retry(func() error { return unix.Fdatasync(j.fd) }); err != nil {
		return fserr.New(fserr.OpJournal, j.rel, err)
	}
	if !j.synced {
		if err := eintr.Retry(func() error { return unix.Fsync(j.dirfd) }); err != nil {
			return fserr.New(fserr.OpJournal, j.rel, err)
		}
		j.synced = true
	}
	return nil
}

// Close closes the journal, leaving it in place.
func (j *Journal) Close() error {
	err := unix.Close(j.fd)
	unix.Close(j.dirfd)
	return err
}

// Remove deletes the journal files Recover found and this one (j may be
// nil), each only if it is still the file that was read or written
// (same device and inode): call it after the run's record is written. A
// found journal with Unreadable lines is moved to its SetAside name
// instead (never over another file), this run's lines appended to it
// included: the record names what could be read, the file keeps the rest.
func Remove(rootfd int, found []Recovered, j *Journal) error {
	var errs []error
	aside := map[string]string{}
	for _, r := range found {
		if r.Unreadable > 0 {
			aside[r.Journal] = r.SetAside
			if r.SetAside == "" { // no name free: kept where it is
				aside[r.Journal] = "\x00"
			}
		}
	}
	if j != nil {
		var st unix.Stat_t
		err := unix.Fstat(j.fd, &st)
		if err == nil {
			err = removeIf(rootfd, j.rel, uint64(st.Dev), st.Ino, aside[j.rel])
		}
		if err != nil {
			errs = append(errs, fserr.New(fserr.OpJournal, j.rel, err))
		}
		j.Close()
	}
	for _, r := range found {
		if j != nil && r.Journal == j.rel {
			continue
		}
		if err := removeIf(rootfd, r.Journal, r.dev, r.ino, aside[r.Journal]); err != nil {
			errs = append(errs, fserr.New(fserr.OpJournal, r.Journal, err))
		}
	}
	return errors.Join(errs...)
}

// removeIf unlinks rel if it is the file (dev, ino), or renames it to
// aside (root-relative, in the same directory) when that is not empty; a
// file already gone is fine.
func removeIf(rootfd int, rel string, dev, ino uint64, aside string) error {
	dirfd, err := eintr.Value(func() (int, error) {
		return unix.Openat(rootfd, path.Dir(rel), unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return err
	}
	defer unix.Close(dirfd)
	var st unix.Stat_t
	switch err := unix.Fstatat(dirfd, path.Base(rel), &st, unix.AT_SYMLINK_NOFOLLOW); {
	case errors.Is(err, unix.ENOENT):
		return nil
	case err != nil:
		return err
	case uint64(st.Dev) != dev || st.Ino != ino:
		return fserr.ErrChanged
	}
	if aside == "\x00" {
		return fserr.ErrNameTaken
	}
	if aside != "" {
		return eintr.Retry(func() error {
			return unix.Renameat2(dirfd, path.Base(rel), dirfd, path.Base(aside), unix.RENAME_NOREPLACE)
		})
	}
	err = eintr.Retry(func() error { return unix.Unlinkat(dirfd, path.Base(rel), 0) })
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	return err
}

// freeAside is the first name "<rel>.unreadable-<n>" (n from 1) that no
// entry of rel's directory has, or "" when none of the first 1,000 is
// free or the directory cannot be read.
func freeAside(rootfd int, rel string) string {
	dirfd, err := eintr.Value(func() (int, error) {
		return unix.Openat(rootfd, path.Dir(rel), unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
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
