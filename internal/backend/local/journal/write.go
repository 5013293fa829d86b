//go:build linux

package journal

import (
	"context"
	"errors"
	"path"
	"slices"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/backend/record"
	"github.com/plangate-gc/plangate-gc/internal/eintr"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
)

// Journals are the journals beneath one root (record.Journals). Their
// methods are not safe for concurrent use.
type Journals struct {
	rootfd  int
	held    func(path string) []string
	f       *file    // this run's journal, opened at its first Append
	foreign []string // names that are no journal of this root's (Foreign)
}

// New returns the journals beneath the root rootfd. held, when not nil,
// names the other paths a file may be held under by a killed deletion
// (its private name, or its place in a directory held whole): a
// journaled file found at one of them is unchanged. The caller holds the
// root's lock before it appends.
func New(rootfd int, held func(path string) []string) *Journals {
	return &Journals{rootfd: rootfd, held: held}
}

// Hold sets where a killed deletion may hold a file (New's held).
func (j *Journals) Hold(held func(path string) []string) { j.held = held }

// Foreign names journal names that are no journal of this root's: those
// the git index tracks (Listed; they may come from another clone). List
// leaves them out, so no run reads, sets aside or removes them, and
// Append refuses to open one (a --force run refuses before it gets
// there; decision 346).
func (j *Journals) Foreign(names ...string) { j.foreign = append(j.foreign, names...) }

// file is this run's open journal.
type file struct {
	rel    string // Path or AltPath
	dirfd  int    // the journal's directory, O_RDONLY (fsync needs it)
	fd     int    // the journal, O_WRONLY|O_APPEND (O_RDWR for one appended to)
	synced bool   // the directory entry has been fsynced
	head   []byte // the header, or the '\n' ending a cut line, not yet written
	tag    string // "<dev> <ino>"
}

// Valid accepts an intent with a canonical path and an identity tag.
func (j *Journals) Valid(in record.Intent) bool {
	_, ok := parseTag(in.Tag)
	return ok && canonical(in.Key)
}

// Append appends body to the root's journal and makes it durable
// (fdatasync, and the directory's entry once for a new journal) before
// it returns, opening the journal at the first append: at Path when
// .river is a directory of the root (not a symlink to one) that river gc
// may write in, else at AltPath, created (O_EXCL, mode 0600) when absent.
// An existing journal is appended to (a killed run's intents stay until
// the record of this run is written) if it is a regular file with one
// link; anything else is refused. Errors are *fserr.Error with Op
// fserr.OpJournal.
func (j *Journals) Append(_ context.Context, body []byte) (record.Unit, error) {
	if j.f == nil {
		f, moveOn, err := j.openAt(Path)
		if moveOn {
			f, _, err = j.openAt(AltPath)
		}
		if err != nil {
			return record.Unit{}, err
		}
		j.f = f
	}
	f := j.f
	if len(f.head) > 0 {
		body = append(f.head, body...)
	}
	if err := f.write(body); err != nil {
		return record.Unit{}, fserr.New(fserr.OpJournal, f.rel, err)
	}
	f.head = nil
	return unit(f.rel, f.tag), nil
}

// Rel is the name of this run's journal (Path before it is opened).
func (j *Journals) Rel() string {
	if j.f != nil {
		return j.f.rel
	}
	return Path
}

// Close closes this run's journal, leaving it in place.
func (j *Journals) Close() error {
	if j.f == nil {
		return nil
	}
	err := unix.Close(j.f.fd)
	unix.Close(j.f.dirfd)
	j.f = nil
	return err
}

// unit is the journal rel with the identity tag ("<dev> <ino>"): every
// run appends to it, so it is one unit of its own.
func unit(rel, tag string) record.Unit {
	return record.Unit{Name: rel, Run: rel, Journal: rel, Tag: tag}
}

// fileTag is the "<dev> <ino>" tag of st.
func fileTag(st *unix.Stat_t) string {
	return strconv.FormatUint(uint64(st.Dev), 10) + " " + strconv.FormatUint(st.Ino, 10)
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

// openAt is openAt beneath the root, refusing a foreign name
// (Foreign): fserr.ErrTrackedJournal.
func (j *Journals) openAt(rel string) (_ *file, moveOn bool, _ error) {
	if slices.Contains(j.foreign, rel) {
		return nil, false, fserr.New(fserr.OpJournal, rel, fserr.ErrTrackedJournal)
	}
	return openAt(j.rootfd, rel)
}

// openAt opens (or creates) the journal rel without following a symlink.
// moveOn says the failure lets the journal go elsewhere: no real
// directory for it, or one river gc may not create a file in (a file of
// another kind at the journal's name is refused, not avoided).
func openAt(rootfd int, rel string) (_ *file, moveOn bool, _ error) {
	dirfd, err := eintr.Value(func() (int, error) {
		return unix.Openat(rootfd, path.Dir(rel), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, errnoIn(err, unix.ENOENT, unix.ENOTDIR, unix.ELOOP), fserr.New(fserr.OpJournal, rel, err)
	}
	f := &file{rel: rel, dirfd: dirfd, fd: -1}
	base := path.Base(rel)
	fd, err := eintr.Value(func() (int, error) {
		return unix.Openat(dirfd, base, unix.O_WRONLY|unix.O_APPEND|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	})
	if err == nil {
		f.fd, f.head = fd, []byte(record.Header+"\n")
		if err = f.identify(); err == nil {
			return f, false, nil
		}
		unix.Close(fd)
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
			f.fd, f.synced = fd, true
			if torn {
				f.head = []byte("\n")
			}
			if err = f.identify(); err == nil {
				return f, false, nil
			}
			unix.Close(fd)
		}
	}
	unix.Close(dirfd)
	return nil, false, fserr.New(fserr.OpJournal, rel, err)
}

// identify sets the file's tag.
func (f *file) identify() error {
	var st unix.Stat_t
	if err := unix.Fstat(f.fd, &st); err != nil {
		return err
	}
	f.tag = fileTag(&st)
	return nil
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

// write appends b whole and syncs.
func (f *file) write(b []byte) error {
	for len(b) > 0 {
		n, err := eintr.Value(func() (int, error) { return unix.Write(f.fd, b) })
		if err != nil {
			return err
		}
		b = b[n:]
	}
	if err := eintr.Retry(func() error { return unix.Fdatasync(f.fd) }); err != nil {
		return err
	}
	if !f.synced {
		if err := eintr.Retry(func() error { return unix.Fsync(f.dirfd) }); err != nil {
			return err
		}
		f.synced = true
	}
	return nil
}
