//go:build linux

package journal

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path"
	"slices"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/eintr"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
)

// maxLine bounds one journal line: a quoted path of at most 4096 bytes
// takes at most 4 × 4096 bytes, the numbers a few dozen.
const maxLine = 4*4096 + 128

// Recovered is what one journal left by a killed (or unrecorded) run
// says that run did.
type Recovered struct {
	// Journal is the journal's root-relative name (Path or AltPath).
	Journal string
	// Removed lists, sorted and without repeats, the paths journaled for
	// deletion that are no longer the journaled file (gone, or another
	// file now has the name).
	Removed []string
	// Rewritten lists the same for paths journaled for rewriting.
	Rewritten []string
	// Finished is true when every run in the journal wrote "done": its
	// deletions ended, only its record is unconfirmed.
	Finished bool
	dev, ino uint64
}

// Recover reads the journals under the root (Path, AltPath) and says,
// for each, which journaled files are no longer what was journaled. held,
// when not nil, names the private name a file may be held under by a
// killed deletion (sweep's rename-then-check); a journaled file found
// there is not reported. It reads only; nothing below the root is
// followed. A journal that is not a regular file, or whose lines do not
// parse (but for a last line cut short), is an *fserr.Error with Op
// fserr.OpJournal and is left in place.
func Recover(rootfd int, held func(path string) string) ([]Recovered, error) {
	var out []Recovered
	var errs []error
	var look looker
	defer look.close()
	for _, rel := range []string{Path, AltPath} {
		intents, finished, st, err := read(rootfd, rel)
		switch {
		case errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.ELOOP):
			continue
		case err != nil:
			errs = append(errs, fserr.New(fserr.OpJournal, rel, err))
			continue
		}
		r := Recovered{Journal: rel, Finished: finished, dev: uint64(st.Dev), ino: st.Ino}
		for _, in := range intents {
			if look.present(rootfd, in.Path, in) {
				continue
			}
			if held != nil {
				if h := held(in.Path); h != "" && look.present(rootfd, h, in) {
					continue
				}
			}
			if in.Op == Rewrite {
				r.Rewritten = append(r.Rewritten, in.Path)
			} else {
				r.Removed = append(r.Removed, in.Path)
			}
		}
		slices.Sort(r.Removed)
		slices.Sort(r.Rewritten)
		r.Removed, r.Rewritten = slices.Compact(r.Removed), slices.Compact(r.Rewritten)
		out = append(out, r)
	}
	return out, errors.Join(errs...)
}

// read parses one journal. A missing directory or file is ENOENT (or
// ENOTDIR, ELOOP for a directory that is no real directory) with st nil.
func read(rootfd int, rel string) (ins []Intent, finished bool, st *unix.Stat_t, err error) {
	dirfd, err := eintr.Value(func() (int, error) {
		return unix.Openat(rootfd, path.Dir(rel), unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, false, nil, err
	}
	defer unix.Close(dirfd)
	fd, err := eintr.Value(func() (int, error) {
		return unix.Openat(dirfd, path.Base(rel), unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	})
	if errors.Is(err, unix.ELOOP) {
		return nil, false, &unix.Stat_t{}, &fserr.KindError{Kind: fserr.KindOf(unix.S_IFLNK), Want: fserr.ErrNotRegular}
	}
	if err != nil {
		return nil, false, nil, err
	}
	f := os.NewFile(uintptr(fd), rel)
	defer f.Close()
	st = &unix.Stat_t{}
	if err := unix.Fstat(fd, st); err != nil {
		return nil, false, st, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, false, st, &fserr.KindError{Kind: fserr.KindOf(st.Mode), Want: fserr.ErrNotRegular}
	}
	ins, finished, err = parse(bufio.NewReaderSize(f, 64<<10))
	return ins, finished, st, err
}

// parse reads a journal's lines (package doc, "Format").
func parse(r *bufio.Reader) (ins []Intent, finished bool, err error) {
	first, runs, done := true, 0, 0
	for {
		line, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) || len(line) > maxLine {
			return nil, false, fserr.ErrJournalCorrupt
		}
		if errors.Is(err, io.EOF) {
			// A last line without its newline was cut short by the kill:
			// its batch was never synced, nothing of it was acted on.
			return ins, runs > 0 && runs == done, nil
		}
		if err != nil {
			return nil, false, err
		}
		s := strings.TrimSuffix(string(line), "\n")
		switch {
		case first:
			if s != Header {
				return nil, false, fserr.ErrJournalCorrupt
			}
			first = false
		case s == "run":
			runs++
		case s == "done":
			done++
		default:
			in, ok := parseIntent(s)
			if !ok || runs == 0 {
				return nil, false, fserr.ErrJournalCorrupt
			}
			ins = append(ins, in)
		}
	}
}

// looker stats root-relative paths without following any symlink,
// keeping the last directory it opened (intents come in path order).
type looker struct {
	dir string
	fd  int
	ok  bool
}

// present reports whether p is still the regular file of the intent
// (device, inode, size and mtime; not ctime, which a rename changes).
func (l *looker) present(rootfd int, p string, in Intent) bool {
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
	return st.Mode&unix.S_IFMT == unix.S_IFREG && uint64(st.Dev) == in.Dev && st.Ino == in.Ino &&
		st.Size == in.Size && st.Mtim.Sec*1e9+st.Mtim.Nsec == in.MtimeNs
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
