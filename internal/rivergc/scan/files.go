//go:build linux

package scan

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/plangate-gc/plangate-gc/internal/fserr"

	"golang.org/x/sys/unix"
)

// sink collects what examining entries yields. The walker has one, and so
// has every worker of its pool; finish merges them and sorts the result,
// so the order in which files were examined never shows.
type sink struct {
	opts      Options
	rootDev   uint64
	rootMnt   uint64 // 0: the kernel gives no mount id; compare st_dev
	files     fileChunks
	sorted    []*File // files in Path order (sort)
	errs      []*fserr.Error
	notes     []Note
	leftovers []string
	meta      []byte // metadata read buffer
}

func (s *sink) fail(op fserr.Op, path string, err error) {
	s.errs = append(s.errs, fserr.New(op, path, err))
}

func (s *sink) note(n Note) {
	n.Path = fserr.Printable(n.Path)
	s.notes = append(s.notes, n)
}

// examine looks at an entry that getdents reported as a regular file:
// dirfd/nameZ, whose root-relative directory is dir. It is statx'ed
// without following (a *.json file whose metadata is wanted is opened
// first instead, see examineOpen); if it is no longer a regular file
// (replaced since the listing) it is noted, never followed or descended.
func (s *sink) examine(dirfd int, dir string, name []byte, nameZ *byte) {
	if s.opts.Metadata && isJSON(name) && s.examineOpen(dirfd, dir, name, nameZ) {
		return
	}
	var stx unix.Statx_t
	if err := statxZ(dirfd, nameZ, 0, &stx); err != nil {
		if !errors.Is(err, unix.ENOENT) { // vanished since listing: nothing to list
			s.fail(fserr.OpStat, dir+"/"+string(name), err)
		}
		return
	}
	p := dir + "/" + string(name)
	switch mode := uint32(stx.Mode); mode & unix.S_IFMT {
	case unix.S_IFREG:
		if !s.onRootMount(&stx) { // a file mounted over the name: not opened
			s.note(Note{Path: p, Kind: NoteOtherMount})
			return
		}
		s.regular(dirfd, name, nameZ, p, &stx)
	case unix.S_IFDIR:
		s.note(Note{Path: p, Kind: NoteChanged, FileKind: fserr.KindOf(mode)})
	case unix.S_IFLNK:
		s.note(Note{Path: p, Kind: NoteSymlink, FileKind: fserr.KindOf(mode)})
	default:
		s.note(Note{Path: p, Kind: NoteSpecial, FileKind: fserr.KindOf(mode)})
	}
}

// examineOpen examines a *.json name that getdents reported as a regular
// file by opening it (O_NOFOLLOW|O_NONBLOCK|O_NOCTTY: a symlink fails, a
// FIFO swapped in does not block) and describing the descriptor, so that
// the statx, the identity and the metadata all come from the one file that
// was read: four system calls instead of five. It returns false, having
// recorded nothing, when the open or the fstat failed for another reason
// than the name being gone (a symlink, a socket, a file it may not read,
// no descriptor left): the caller then examines the name by statx, which
// records what it is.
func (s *sink) examineOpen(dirfd int, dir string, name []byte, nameZ *byte) bool {
	fd, err := openatZ(dirfd, nameZ, openFileFlags)
	switch {
	case errors.Is(err, unix.ENOENT):
		return true // vanished since listing: nothing to list
	case err != nil:
		return false
	}
	defer unix.Close(fd)
	var stx unix.Statx_t
	if fstatx(fd, &stx) != nil {
		return false
	}
	p := dir + "/" + string(name)
	switch mode := uint32(stx.Mode); mode & unix.S_IFMT {
	case unix.S_IFREG:
		if !s.onRootMount(&stx) { // a file mounted over the name: not read
			s.note(Note{Path: p, Kind: NoteOtherMount})
		} else if s.accept(name, p) {
			ts, reason, err := s.readMetadata(fd, stx.Size)
			s.stamped(p, &stx, ts, reason, err)
		}
	case unix.S_IFDIR:
		s.note(Note{Path: p, Kind: NoteChanged, FileKind: fserr.KindOf(mode)})
	default:
		s.note(Note{Path: p, Kind: NoteSpecial, FileKind: fserr.KindOf(mode)})
	}
	return true
}

// regular records the regular file dirfd/nameZ (root-relative path p) that
// statx described as stx, with its metadata timestamp when enabled and
// available.
func (s *sink) regular(dirfd int, name []byte, nameZ *byte, p string, stx *unix.Statx_t) {
	if !s.accept(name, p) {
		return
	}
	var ts stamp
	var reason MetaReason
	var err error
	if s.opts.Metadata && isJSON(name) {
		ts, reason, err = s.fileMetadata(dirfd, nameZ, stx)
	}
	s.stamped(p, stx, ts, reason, err)
}

// accept reports whether a regular file is to be recorded as a File: its
// name must be UTF-8 (else it is an error), and a leftover of an
// interrupted deletion is recorded apart.
func (s *sink) accept(name []byte, p string) bool {
	if !utf8.Valid(name) {
		s.fail(fserr.OpStat, p, fserr.ErrNotUTF8)
		return false
	}
	if bytes.HasPrefix(name, []byte(LeftoverPrefix)) {
		s.leftovers = append(s.leftovers, p)
		return false
	}
	if bytes.HasPrefix(name, []byte(RewriteTempPrefix)) {
		// A rewrite's copy in flight or left by a killed run: never an
		// artifact; the journal that names it decides (decision 223).
		return false
	}
	return true
}

// stamped records the file p that stx describes, with its metadata
// timestamp (ts), or judged by its mtime with a note saying why (reason).
// A metadata read that failed for want of something other than permission
// (EMFILE, ENOMEM, EIO, ...) is an error instead, and the file is not
// recorded: judged by its mtime it could be deleted although its metadata
// says to keep it, and the failure says nothing about the file.
func (s *sink) stamped(p string, stx *unix.Statx_t, ts stamp, reason MetaReason, err error) {
	if err != nil && !errors.Is(err, unix.EACCES) && !errors.Is(err, unix.EPERM) {
		s.fail(fserr.OpReadMeta, p, err)
		return
	}
	if s.opts.Seen != nil {
		s.opts.Seen.Add(1)
	}
	f := s.files.add()
	*f = File{
		Path:            p,
		Size:            int64(stx.Size),
		Timestamp:       stx.Mtime.Sec,
		TimestampSource: SourceMtime,
		Dev:             devOf(stx),
		Ino:             stx.Ino,
		MtimeNs:         ns(stx.Mtime),
		CtimeNs:         ns(stx.Ctime),
	}
	if stx.Mask&unix.STATX_BLOCKS != 0 {
		f.Allocated = int64(stx.Blocks) * 512
	}
	switch {
	case reason != "":
		s.note(Note{Path: p, Kind: NoteMetadataUnusable, Reason: reason, Err: err})
	case ts.ok:
		f.Timestamp, f.TimestampSource = ts.sec, SourceMetadata
	}
}

func isJSON(name []byte) bool { return bytes.HasSuffix(name, []byte(".json")) }

// fileChunks collects Files in fixed chunks, so that the final slice is
// allocated once at its exact size instead of regrown while scanning.
type fileChunks struct {
	chunks [][]File
	n      int
}

// add appends a zero File and returns it.
func (c *fileChunks) add() *File {
	if k := len(c.chunks); k == 0 || len(c.chunks[k-1]) == cap(c.chunks[k-1]) {
		size := min(max(64, c.n), 4096)
		c.chunks = append(c.chunks, make([]File, 0, size))
	}
	last := &c.chunks[len(c.chunks)-1]
	*last = append(*last, File{})
	c.n++
	return &(*last)[len(*last)-1]
}

// sort orders the sink's files by Path, as pointers into its chunks
// (sorting 8-byte pointers moves far less than sorting Files).
func (s *sink) sort() {
	s.sorted = make([]*File, 0, s.files.n)
	for _, ch := range s.files.chunks {
		for i := range ch {
			s.sorted = append(s.sorted, &ch[i])
		}
	}
	slices.SortFunc(s.sorted, func(a, b *File) int { return strings.Compare(a.Path, b.Path) })
}

// mergeSorted merges runs, each sorted by Path, into one sorted slice of
// Files: the only copy of the Files scan makes. Paths are unique across
// runs (each file is examined once).
func mergeSorted(runs [][]*File) []File {
	n := 0
	for _, r := range runs {
		n += len(r)
	}
	out := make([]File, 0, n)
	for len(out) < n {
		best := -1
		for i, r := range runs {
			if len(r) > 0 && (best < 0 || r[0].Path < runs[best][0].Path) {
				best = i
			}
		}
		out = append(out, *runs[best][0])
		runs[best] = runs[best][1:]
	}
	return out
}
