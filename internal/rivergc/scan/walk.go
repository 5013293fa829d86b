//go:build linux

package scan

import (
	"bytes"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/plangate-gc/plangate-gc/internal/eintr"
	"github.com/plangate-gc/plangate-gc/internal/fserr"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/skill"
)

// getdentsBufSize is the getdents64 buffer: large enough for ~2000
// typical entries per system call.
const getdentsBufSize = 128 << 10

// walker carries the state of one Scan. It walks iteratively with an
// explicit stack of directories (a bounded number of them open, see
// stack.go) and one shared path buffer, so its
// memory is O(files + depth): a file's path string is built only when the
// file is recorded, and a directory's pending subdirectory names live in
// one LIFO arena that shrinks when the directory is left. Every directory
// is opened relative to its parent's descriptor with O_NOFOLLOW|O_DIRECTORY
// and every entry is examined with statx(AT_SYMLINK_NOFOLLOW), so a name
// swapped for a symlink during the scan is never followed.
type walker struct {
	scope     skill.Scope
	recursive bool
	filter    func(name []byte) bool // nil: every name

	buf     []byte   // getdents64 buffer
	path    []byte   // path of the directory being listed or entered
	stack   []frame  // directories being walked, root-most first
	budget  int      // most descriptors held for stack[1:] (see stack.go)
	lowOpen int      // stack[1:lowOpen] are closed, stack[lowOpen:] open
	reopens int      // how often a closed directory was reopened
	subdirs []subdir // pending subdirectories of every frame, LIFO
	names   []byte   // NUL-terminated names of subdirs
	sink             // what the walker itself records (and its Options)
	workers int      // examining goroutines (pool.go); 1: inline
	pool    *pool    // started with the first batch
	batch   job      // regular-file names not yet handed over
	batchN  int      // how many names batch holds
	dir     *openDir // the directory being listed, once shared
	repos   []string // directories holding .git, not entered (Result.NestedRepos)
	dirs    []Dir    // the scope's own and those below it, listed whole (Result.Dirs)
}

// frame is one open directory of the walk.
type frame struct {
	fd        int      // -1 while closed to stay within the descriptor budget
	shared    *openDir // fd as shared with batches of its files (pool.go), or nil
	nameOff   int      // its NUL-terminated name is at w.names[nameOff:]; -1 for the scope directory
	id        dirID
	pathLen   int // w.path[:pathLen] is its root-relative path
	next, end int // its pending subdirectories are w.subdirs[next:end]
	first     int // w.subdirs and w.names are cut back to these when it is left
	namesMark int
}

// subdir is a pending subdirectory name: w.names[off:off+n], NUL at off+n.
type subdir struct{ off, n int }

// openScopeDir opens a scope directory such as "artifacts/evals" from the
// root one component at a time. ok is false when the scope is empty
// (missing, a symlink, not a directory, another mount) or the directory
// could not be opened (then an Error is recorded).
func (w *walker) openScopeDir(rootfd int, rel string) (fd int, ok bool) {
	cur := rootfd
	end := 0
	for end < len(rel) {
		start := end
		if i := strings.IndexByte(rel[start:], '/'); i >= 0 {
			end = start + i
		} else {
			end = len(rel)
		}
		sofar := rel[:end]
		nameZ := append([]byte(rel[start:end]), 0)
		flags := openPathFlags // only the scope directory itself is listed
		if end == len(rel) {
			flags = openDirFlags
		}
		next, err := openatZ(cur, &nameZ[0], flags)
		if err != nil {
			switch {
			case errors.Is(err, unix.ENOENT):
				w.note(Note{Path: sofar, Kind: NoteMissing})
			case errors.Is(err, unix.ELOOP), errors.Is(err, unix.ENOTDIR):
				w.note(kindNote(cur, &nameZ[0], sofar))
			default:
				w.fail(fserr.OpOpenDir, sofar, err)
			}
			if cur != rootfd {
				unix.Close(cur)
			}
			return -1, false
		}
		if cur != rootfd {
			unix.Close(cur)
		}
		cur = next
		if _, ok := w.sameMount(cur, []byte(sofar)); !ok {
			unix.Close(cur)
			return -1, false
		}
		if isRepo(cur) { // artifacts/ itself, or a scope directory, is a repository of its own
			w.repos = append(w.repos, sofar)
			w.note(Note{Path: sofar, Kind: NoteNestedRepo})
			unix.Close(cur)
			return -1, false
		}
		end++ // past the '/'
	}
	return cur, true
}

// kindNote describes the non-directory entry dirfd/nameZ that a scope
// directory component turned out to be.
func kindNote(dirfd int, nameZ *byte, sofar string) Note {
	k := kindAt(dirfd, nameZ)
	if k == fserr.KindOf(unix.S_IFLNK) {
		return Note{Path: sofar, Kind: NoteSymlink, FileKind: k}
	}
	return Note{Path: sofar, Kind: NoteNotDir, FileKind: k}
}

// kindAt is the file type of dirfd/nameZ (not followed), 0 if unknown.
func kindAt(dirfd int, nameZ *byte) fserr.Kind {
	var stx unix.Statx_t
	if statxZ(dirfd, nameZ, 0, &stx) != nil {
		return 0
	}
	return fserr.KindOf(uint32(stx.Mode))
}

// sameMount reports whether the open directory fd is on the root's mount
// (mount ids; st_dev where the kernel gives no mount id); if not it
// records a Note (the directory is not descended).
// rel is turned into a string only then, so that descending costs no
// allocation per level.
func (w *walker) sameMount(fd int, rel []byte) (dirID, bool) {
	var stx unix.Statx_t
	if err := fstatx(fd, &stx); err != nil {
		w.fail(fserr.OpStat, string(rel), err)
		return dirID{}, false
	}
	if !w.onRootMount(&stx) {
		w.note(Note{Path: string(rel), Kind: NoteOtherMount})
		return dirID{}, false
	}
	return idOf(&stx), true
}

// onRootMount compares st_dev always and the mount id when both are known.
func (s *sink) onRootMount(stx *unix.Statx_t) bool {
	if devOf(stx) != s.rootDev {
		return false
	}
	return s.rootMnt == 0 || mntOf(stx) == 0 || mntOf(stx) == s.rootMnt
}

// mntOf is the statx mount id, or 0 when the kernel did not report one.
func mntOf(stx *unix.Statx_t) uint64 {
	if stx.Mask&unix.STATX_MNT_ID == 0 {
		return 0
	}
	return stx.Mnt_id
}

// walk lists the open scope directory fd (root-relative path rel) and,
// when recursive, everything below it, depth first. It closes fd.
func (w *walker) walk(fd int, rel string) {
	if w.buf == nil {
		w.buf = make([]byte, getdentsBufSize)
	}
	w.path = append(w.path[:0], rel...)
	w.lowOpen = 1
	w.push(fd, -1, dirID{})
	for len(w.stack) > 0 {
		top := &w.stack[len(w.stack)-1]
		if top.next == top.end {
			w.pop()
			continue
		}
		if top.fd < 0 && !w.reopen() {
			continue
		}
		sd := w.subdirs[top.next]
		top.next++
		w.path = append(append(w.path[:top.pathLen], '/'), w.names[sd.off:sd.off+sd.n]...)
		if cfd, id, ok := w.openChild(top.fd, &w.names[sd.off]); ok {
			w.push(cfd, sd.off, id)
		}
	}
}

// push lists the directory fd, whose path is w.path, and puts it on the
// stack with its subdirectories pending.
func (w *walker) push(fd, nameOff int, id dirID) {
	f := frame{fd: fd, nameOff: nameOff, id: id, pathLen: len(w.path), first: len(w.subdirs), namesMark: len(w.names)}
	w.list(fd)
	f.shared, w.dir = w.dir, nil
	f.next, f.end = f.first, len(w.subdirs)
	w.stack = append(w.stack, f)
	w.evict()
}

// pop leaves the top directory.
func (w *walker) pop() {
	top := w.stack[len(w.stack)-1]
	top.close()
	w.subdirs, w.names = w.subdirs[:top.first], w.names[:top.namesMark]
	w.stack = w.stack[:len(w.stack)-1]
	w.lowOpen = max(1, min(w.lowOpen, len(w.stack)))
}

// openChild opens the subdirectory w.path, named nameZ in dirfd.
func (w *walker) openChild(dirfd int, nameZ *byte) (int, dirID, bool) {
	fd, err := openatZ(dirfd, nameZ, openDirFlags)
	if err != nil {
		switch {
		case errors.Is(err, unix.ENOENT): // vanished since listing: nothing to list
		case errors.Is(err, unix.ELOOP), errors.Is(err, unix.ENOTDIR):
			w.note(Note{Path: string(w.path), Kind: NoteChanged, FileKind: kindAt(dirfd, nameZ)})
		default:
			w.fail(fserr.OpOpenDir, string(w.path), err)
		}
		return -1, dirID{}, false
	}
	id, ok := w.sameMount(fd, w.path)
	if !ok {
		unix.Close(fd)
		return -1, dirID{}, false
	}
	if isRepo(fd) {
		w.repos = append(w.repos, string(w.path))
		w.note(Note{Path: string(w.path), Kind: NoteNestedRepo})
		unix.Close(fd)
		return -1, dirID{}, false
	}
	return fd, id, true
}

// holdsGit reports whether the directory name in dirfd holds an entry
// named .git, or cannot be told not to (anything but ENOENT and ENOTDIR).
func holdsGit(dirfd int, name []byte) bool {
	var st unix.Stat_t
	err := unix.Fstatat(dirfd, string(name)+"/.git", &st, unix.AT_SYMLINK_NOFOLLOW)
	return err != unix.ENOENT && err != unix.ENOTDIR
}

// gitZ is ".git", NUL-terminated.
var gitZ = []byte(".git\x00")

// isRepo reports whether the open directory fd holds an entry named
// ".git" (a git directory, a gitdir file, or anything else so named): it
// is then a repository of its own, which river gc neither enters nor
// deletes from, as git clean refuses nested repositories (SPEC B4).
func isRepo(fd int) bool {
	var stx unix.Statx_t
	return statxZ(fd, &gitZ[0], 0, &stx) == nil
}

// list reads the directory fd (path w.path), records its regular files and
// queues its subdirectories. Entries read before an error are still used.
func (w *walker) list(fd int) {
	entries, files := 0, 0
	for {
		n, err := eintr.Value(func() (int, error) { return unix.Getdents(fd, w.buf) })
		if err != nil {
			w.fail(fserr.OpReadDir, string(w.path), err)
			return
		}
		if n <= 0 {
			// Only one with a file of its own, so that no directory costs
			// more than one file's path and a chain of empty ones costs
			// nothing (SPEC B2: O(files + depth)).
			if w.opts.Dirs && w.recursive && files > 0 {
				w.dirs = append(w.dirs, Dir{Path: string(w.path), Entries: entries})
			}
			return
		}
		for b := w.buf[:n]; len(b) > 0; {
			d, reclen, ok := nextDirent(b)
			if !ok { // the kernel never writes this; say so rather than drop names
				w.fail(fserr.OpReadDir, string(w.path), unix.EBADMSG)
				return
			}
			b = b[reclen:]
			if !isDot(d.name) {
				entries++
			}
			switch {
			case isDot(d.name) || (w.filter != nil && !w.filter(d.name)):
			case d.typ == unix.DT_REG:
				files++
				w.queue(fd, d)
			default:
				w.visit(fd, d)
			}
		}
	}
}

func isDot(name []byte) bool {
	return len(name) == 1 && name[0] == '.' || len(name) == 2 && name[0] == '.' && name[1] == '.'
}

// entryPath is the root-relative path of name in the directory w.path.
func (w *walker) entryPath(name []byte) string {
	n := len(w.path)
	w.path = append(append(w.path, '/'), name...)
	s := string(w.path)
	w.path = w.path[:n]
	return s
}

// visit examines one directory entry without following it.
func (w *walker) visit(dirfd int, d dirent) {
	var stx unix.Statx_t
	if err := statxZ(dirfd, d.nameZ, 0, &stx); err != nil {
		if !errors.Is(err, unix.ENOENT) { // vanished since listing: nothing to list
			w.fail(fserr.OpStat, w.entryPath(d.name), err)
		}
		return
	}
	switch mode := uint32(stx.Mode); mode & unix.S_IFMT {
	case unix.S_IFREG:
		if !w.onRootMount(&stx) { // a file mounted over the name: not opened
			w.note(Note{Path: w.entryPath(d.name), Kind: NoteOtherMount})
			return
		}
		w.regular(dirfd, d.name, d.nameZ, w.entryPath(d.name), &stx)
	case unix.S_IFDIR:
		if !w.recursive {
			return
		}
		if !utf8.Valid(d.name) {
			w.fail(fserr.OpOpenDir, w.entryPath(d.name), fserr.ErrNotUTF8)
			return
		}
		if !w.onRootMount(&stx) { // a mount point: not even opened
			w.note(Note{Path: w.entryPath(d.name), Kind: NoteOtherMount})
			return
		}
		if bytes.HasPrefix(d.name, []byte(LeftoverPrefix)) {
			// A directory an interrupted run held whole (sweep's
			// Options.Hold): put back first, then judged. One holding
			// .git was never held (a held directory holds none): a
			// repository of its own, never moved (decision 289).
			p := w.entryPath(d.name)
			if holdsGit(dirfd, d.name) {
				w.repos = append(w.repos, p)
				w.note(Note{Path: p, Kind: NoteNestedRepo})
				return
			}
			w.leftovers = append(w.leftovers, p)
			return
		}
		off := len(w.names)
		w.names = append(append(w.names, d.name...), 0)
		w.subdirs = append(w.subdirs, subdir{off: off, n: len(d.name)})
	case unix.S_IFLNK:
		w.note(Note{Path: w.entryPath(d.name), Kind: NoteSymlink, FileKind: fserr.KindOf(mode)})
	default:
		w.note(Note{Path: w.entryPath(d.name), Kind: NoteSpecial, FileKind: fserr.KindOf(mode)})
	}
}
