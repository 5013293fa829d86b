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

// maxLine bounds one journal line, and so what reading a hostile journal
// may hold in memory at once: 4 MiB, a path of at least 1 MiB (every byte
// quoted as \xNN) — paths beyond PATH_MAX, hundreds of components deep,
// fit; Intend refuses a longer line, so the reader reads every line the
// writer writes.
const maxLine = 4 << 20

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
	// Temps lists, sorted, the copies killed rewrites left under their
	// temporary names: journaled (op temp) and still exactly the journaled
	// file. RemoveTemps removes them.
	Temps []Intent
	// Finished is true when every run in the journal wrote "done" and
	// every line was read: its deletions ended, only its record is
	// unconfirmed.
	Finished bool
	// Unreadable counts the lines not in the journal's format (a foreign
	// first line, a garbled, unknown or overlong line; a last line cut
	// short by a kill is not one). What could be read is in Removed and
	// Rewritten all the same; Remove moves such a journal to SetAside
	// instead of deleting it (decision 133).
	Unreadable int
	// SetAside is the name of river gc's own (Path or AltPath with
	// ".unreadable-<n>", the first n free) that Remove moves a journal
	// with Unreadable lines to; empty when every line was read.
	SetAside string
	dev, ino uint64
}

// Recover reads the journals under the root (Path, AltPath) and says,
// for each, which journaled files are no longer what was journaled. held,
// when not nil, names the other paths a file may be held under by a
// killed deletion (its private name, or its place in a directory held
// whole); a journaled file found at one of them is not reported. It reads only; nothing below the root is
// followed. Every line that parses is read, wherever it stands; lines
// that do not are counted in Unreadable. A journal that is not a regular
// file or cannot be opened is an *fserr.Error with Op fserr.OpJournal and
// is left in place.
func Recover(rootfd int, held func(path string) []string) ([]Recovered, error) {
	var out []Recovered
	var errs []error
	var look looker
	defer look.close()
	for _, rel := range []string{Path, AltPath} {
		intents, finished, bad, st, err := read(rootfd, rel)
		switch {
		case errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.ELOOP):
			continue
		case err != nil:
			errs = append(errs, fserr.New(fserr.OpJournal, rel, err))
			continue
		}
		r := Recovered{Journal: rel, Finished: finished && bad == 0, Unreadable: bad, dev: uint64(st.Dev), ino: st.Ino}
		if bad > 0 {
			r.SetAside = freeAside(rootfd, rel)
		}
		for _, in := range intents {
			if in.Op == Temp {
				if look.present(rootfd, in.Path, in) {
					r.Temps = append(r.Temps, in)
				}
				continue // gone: renamed over its store, or never linked
			}
			if look.present(rootfd, in.Path, in) {
				continue
			}
			if held != nil && slices.ContainsFunc(held(in.Path), func(h string) bool { return look.present(rootfd, h, in) }) {
				continue
			}
			if in.Op == Rewrite {
				r.Rewritten = append(r.Rewritten, in.Path)
			} else {
				r.Removed = append(r.Removed, in.Path)
			}
		}
		slices.Sort(r.Removed)
		slices.Sort(r.Rewritten)
		slices.SortFunc(r.Temps, func(a, b Intent) int { return strings.Compare(a.Path, b.Path) })
		r.Temps = slices.CompactFunc(r.Temps, func(a, b Intent) bool { return a.Path == b.Path })
		r.Removed, r.Rewritten = slices.Compact(r.Removed), slices.Compact(r.Rewritten)
		out = append(out, r)
	}
	return out, errors.Join(errs...)
}

// RemoveTemps unlinks the copies killed rewrites left (Recovered.Temps),
// each only while it is still exactly the journaled file, and returns the
// paths removed, sorted. Call it holding the root's lock (--force).
func RemoveTemps(rootfd int, found []Recovered) (removed []string, err error) {
	var errs []error
	for _, r := range found {
		for _, in := range r.Temps {
			e := unlinkIf(rootfd, in)
			switch {
			case e == nil:
				removed = append(removed, in.Path)
			case !errors.Is(e, unix.ENOENT):
				errs = append(errs, fserr.New(fserr.OpDelete, in.Path, e))
			}
		}
	}
	slices.Sort(removed)
	return slices.Compact(removed), errors.Join(errs...)
}

// unlinkIf unlinks in.Path if it is still the regular file of the
// intent; fserr.ErrChanged otherwise.
func unlinkIf(rootfd int, in Intent) error {
	dir, name := path.Split(in.Path)
	dfd, err := walk(rootfd, strings.TrimSuffix(dir, "/"))
	if err != nil {
		return err
	}
	defer unix.Close(dfd)
	var st unix.Stat_t
	if err := unix.Fstatat(dfd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG || uint64(st.Dev) != in.Dev || st.Ino != in.Ino ||
		st.Size != in.Size || st.Mtim.Sec*1e9+st.Mtim.Nsec != in.MtimeNs {
		return fserr.ErrChanged
	}
	return eintr.Retry(func() error { return unix.Unlinkat(dfd, name, 0) })
}

// read parses one journal. A missing directory or file is ENOENT (or
// ENOTDIR, ELOOP for a directory that is no real directory) with st nil.
func read(rootfd int, rel string) (ins []Intent, finished bool, bad int, st *unix.Stat_t, err error) {
	dirfd, err := eintr.Value(func() (int, error) {
		return unix.Openat(rootfd, path.Dir(rel), unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, false, 0, nil, err
	}
	defer unix.Close(dirfd)
	fd, err := eintr.Value(func() (int, error) {
		return unix.Openat(dirfd, path.Base(rel), unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	})
	if errors.Is(err, unix.ELOOP) {
		return nil, false, 0, &unix.Stat_t{}, &fserr.KindError{Kind: fserr.KindOf(unix.S_IFLNK), Want: fserr.ErrNotRegular}
	}
	if err != nil {
		return nil, false, 0, nil, err
	}
	f := os.NewFile(uintptr(fd), rel)
	defer f.Close()
	st = &unix.Stat_t{}
	if err := unix.Fstat(fd, st); err != nil {
		return nil, false, 0, st, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, false, 0, st, &fserr.KindError{Kind: fserr.KindOf(st.Mode), Want: fserr.ErrNotRegular}
	}
	ins, finished, bad, err = parse(bufio.NewReaderSize(f, 64<<10))
	return ins, finished, bad, st, err
}

// parse reads a journal's lines (package doc, "Format"): every intent
// line that parses, wherever it stands, and a count of the lines that do
// not (bad). Only a read error of the file is an error.
func parse(r *bufio.Reader) (ins []Intent, finished bool, bad int, err error) {
	first, runs, done := true, 0, 0
	var long []byte
	cut := false // the line before did not parse; a "run" now says it was cut short
	for {
		line, complete, err := readLine(r, &long)
		if errors.Is(err, io.EOF) {
			// A last line without its newline was cut short by the kill:
			// its batch was never synced, nothing of it was acted on.
			return ins, runs > 0 && runs == done, bad, nil
		}
		if err != nil {
			return nil, false, 0, err
		}
		s := string(line)
		if cut && s == "run" {
			// The next run's Open ended the cut line with a '\n' of its
			// own (checkOurs): it was the cut-short end of a batch never
			// synced, not a line the disk garbled.
			bad--
		}
		cut = false
		if first && complete && s == Header {
			first = false
			continue
		}
		if first { // not ours, or the header was lost: one unreadable line, read as an intent if it is one
			first = false
			bad++
			if in, ok := parseIntent(s); ok && complete {
				ins = append(ins, in)
			}
			continue
		}
		switch {
		case !complete:
			bad++
			cut = true
		case s == "run":
			runs++
		case s == "done":
			done++
		default:
			in, ok := parseIntent(s)
			if !ok {
				bad++
				cut = true
				continue
			}
			ins = append(ins, in)
		}
	}
}

// readLine returns the next line without its newline, of any length up
// to maxLine (complete), or skips a longer one whole (not complete). A
// last line without a newline is io.EOF. long is scratch space kept
// between calls.
func readLine(r *bufio.Reader, long *[]byte) (line []byte, complete bool, err error) {
	*long = (*long)[:0]
	size := 0
	for {
		frag, err := r.ReadSlice('\n')
		size += len(frag)
		if size <= maxLine+1 && (err == nil || errors.Is(err, bufio.ErrBufferFull)) {
			if err == nil && len(*long) == 0 {
				return frag[:len(frag)-1], true, nil
			}
			*long = append(*long, frag...)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err != nil:
			return nil, false, err
		case size > maxLine+1:
			return nil, false, nil
		}
		return (*long)[:len(*long)-1], true, nil
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
