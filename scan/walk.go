package scan

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/plangate-gc/plangate-gc/internal/fsmsg"

	"golang.org/x/sys/unix"
)

// walker carries the state of one Scan. Every directory is opened relative
// to its parent's descriptor with O_NOFOLLOW|O_DIRECTORY and every entry is
// examined with fstatat(AT_SYMLINK_NOFOLLOW), so a name swapped for a
// symlink during the scan is never followed.
type walker struct {
	opts      Options
	rootDev   uint64
	recursive bool
	filter    func(name string) bool // nil: every name
	buf       []byte                 // getdents and metadata read buffer
	names     []string               // scratch for readdir
	res       Result
}

func (w *walker) errorf(path, format string, args ...any) {
	w.res.Errors = append(w.res.Errors, Error{Path: fsmsg.Printable(path), Message: fmt.Sprintf(format, args...)})
}

func (w *walker) notef(path, format string, args ...any) {
	w.res.Notes = append(w.res.Notes, Note{Path: fsmsg.Printable(path), Message: fmt.Sprintf(format, args...)})
}

// openDir opens name relative to dirfd as a directory without following a
// final symlink when nofollow is set (it is unset for the root only).
func openDir(dirfd int, name string, nofollow bool) (int, error) {
	return openDirFlags(dirfd, name, nofollow, unix.O_RDONLY)
}

// openPath opens a directory only to walk through it (O_PATH): a component
// such as .river with mode 0711 can be traversed without being listable.
func openPath(dirfd int, name string, nofollow bool) (int, error) {
	return openDirFlags(dirfd, name, nofollow, unix.O_PATH)
}

func openDirFlags(dirfd int, name string, nofollow bool, mode int) (int, error) {
	flags := mode | unix.O_DIRECTORY | unix.O_CLOEXEC
	if nofollow {
		flags |= unix.O_NOFOLLOW
	}
	for {
		fd, err := unix.Openat(dirfd, name, flags, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// openScopeDir opens a scope directory such as "artifacts/evals" from the
// root one component at a time. ok is false when the scope is empty
// (missing, a symlink, not a directory, another file system) or the
// directory could not be opened (then an Error is recorded).
func (w *walker) openScopeDir(rootfd int, rel string) (fd int, ok bool) {
	cur := rootfd
	defer func() {
		if cur != rootfd && cur != fd {
			unix.Close(cur)
		}
	}()
	comps := strings.Split(rel, "/")
	for i, c := range comps {
		sofar := strings.Join(comps[:i+1], "/")
		open := openPath // only the scope directory itself is listed
		if i == len(comps)-1 {
			open = openDir
		}
		next, err := open(cur, c, true)
		if err != nil {
			switch {
			case errors.Is(err, unix.ENOENT):
				w.notef(sofar, "does not exist; nothing to scan in %s", rel)
			case errors.Is(err, unix.ELOOP), errors.Is(err, unix.ENOTDIR):
				w.notef(sofar, "is %s, not a directory; not followed, nothing scanned in %s", describeAt(cur, c), rel)
			default:
				w.errorf(sofar, "cannot open directory: %s", fsmsg.ErrText(err))
			}
			return -1, false
		}
		if cur != rootfd {
			unix.Close(cur)
		}
		cur = next
		if !w.sameDev(cur, sofar) {
			return -1, false
		}
	}
	return cur, true
}

// sameDev reports whether the open directory fd is on the root's file
// system; if not it records a Note (the directory is not descended).
func (w *walker) sameDev(fd int, rel string) bool {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		w.errorf(rel, "cannot stat directory: %s", fsmsg.ErrText(err))
		return false
	}
	if uint64(st.Dev) != w.rootDev {
		w.notef(rel, "on another file system; not descended")
		return false
	}
	return true
}

// walkDir lists the open directory fd (whose root-relative path is rel),
// records its regular files and, when recursive, descends into its
// subdirectories. It closes fd.
func (w *walker) walkDir(fd int, rel string) {
	names, err := w.readNames(fd)
	if err != nil {
		// Entries read before the failure are still used.
		w.errorf(rel, "cannot read directory: %s", fsmsg.ErrText(err))
	}
	for _, name := range names {
		w.visit(fd, rel, name)
	}
	unix.Close(fd)
}

// visit examines one directory entry without following it.
func (w *walker) visit(dirfd int, rel, name string) {
	if w.filter != nil && !w.filter(name) {
		return
	}
	p := rel + "/" + name
	var st unix.Stat_t
	if err := fstatat(dirfd, name, &st); err != nil {
		if !errors.Is(err, unix.ENOENT) { // vanished since readdir: nothing to list
			w.errorf(p, "cannot stat: %s", fsmsg.ErrText(err))
		}
		return
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		if !utf8.ValidString(name) {
			w.errorf(p, "file name is not valid UTF-8; not listed")
			return
		}
		w.addFile(dirfd, p, name, &st)
	case unix.S_IFDIR:
		if !w.recursive {
			return
		}
		if !utf8.ValidString(name) {
			w.errorf(p, "directory name is not valid UTF-8; not descended")
			return
		}
		if uint64(st.Dev) != w.rootDev {
			w.notef(p, "on another file system; not descended")
			return
		}
		cfd, err := openDir(dirfd, name, true)
		if err != nil {
			switch {
			case errors.Is(err, unix.ENOENT):
			case errors.Is(err, unix.ELOOP), errors.Is(err, unix.ENOTDIR):
				w.notef(p, "changed during scan (now %s); not descended", describeAt(dirfd, name))
			default:
				w.errorf(p, "cannot open directory: %s", fsmsg.ErrText(err))
			}
			return
		}
		if !w.sameDev(cfd, p) {
			unix.Close(cfd)
			return
		}
		w.walkDir(cfd, p)
	default:
		w.notef(p, "%s; not followed, not listed", fsmsg.Kind(st.Mode))
	}
}

// addFile records a regular file, taking its timestamp from metadata when
// enabled and available.
func (w *walker) addFile(dirfd int, p, name string, st *unix.Stat_t) {
	f := File{
		Path:            p,
		Size:            st.Size,
		Timestamp:       int64(st.Mtim.Sec),
		TimestampSource: SourceMtime,
		Dev:             uint64(st.Dev),
		Ino:             uint64(st.Ino),
		MtimeNs:         int64(st.Mtim.Sec)*1e9 + int64(st.Mtim.Nsec),
	}
	if w.opts.Metadata && strings.HasSuffix(name, ".json") {
		if ts, note := w.fileMetadata(dirfd, name, st); note != "" {
			w.notef(p, "%s; mtime used", note)
		} else if ts.ok {
			f.Timestamp, f.TimestampSource = ts.sec, SourceMetadata
		}
	}
	w.res.Files = append(w.res.Files, f)
}

// readNames reads every entry name of the open directory fd (without "."
// and ".."). On error it returns the names read so far.
func (w *walker) readNames(fd int) ([]string, error) {
	names := w.names[:0]
	for {
		n, err := unix.Getdents(fd, w.buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return names, err
		}
		if n <= 0 {
			break
		}
		_, _, names = unix.ParseDirent(w.buf[:n], -1, names)
	}
	// The scratch slice is reused by the next (deeper) directory, so hand
	// out a copy.
	out := make([]string, len(names))
	copy(out, names)
	w.names = names[:0]
	return out, nil
}

func fstatat(dirfd int, name string, st *unix.Stat_t) error {
	for {
		err := unix.Fstatat(dirfd, name, st, unix.AT_SYMLINK_NOFOLLOW)
		if err != unix.EINTR {
			return err
		}
	}
}

// describeAt names the kind of the entry dirfd/name for a Note.
func describeAt(dirfd int, name string) string {
	var st unix.Stat_t
	if err := fstatat(dirfd, name, &st); err != nil {
		return "unreadable (" + fsmsg.ErrText(err) + ")"
	}
	return fsmsg.Kind(st.Mode)
}
