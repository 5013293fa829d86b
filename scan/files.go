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
	files     fileChunks
	sorted    []File // files, flattened and sorted by Path (sort)
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
// without following; if it is no longer a regular file (replaced since
// the listing) it is noted, never followed or descended.
func (s *sink) examine(dirfd int, dir string, name []byte, nameZ *byte) {
	var stx unix.Statx_t
	if err := statxZ(dirfd, nameZ, 0, &stx); err != nil {
		if !errors.Is(err, unix.ENOENT) { // vanished since listing: nothing to list
			s.fail(fserr.OpStat, dir+"/"+string(name), err)
		}
		return
	}
	switch mode := uint32(stx.Mode); mode & unix.S_IFMT {
	case unix.S_IFREG:
		s.regular(dirfd, name, nameZ, dir+"/"+string(name), &stx)
	case unix.S_IFDIR:
		s.note(Note{Path: dir + "/" + string(name), Kind: NoteChanged, FileKind: fserr.KindOf(mode)})
	case unix.S_IFLNK:
		s.note(Note{Path: dir + "/" + string(name), Kind: NoteSymlink, FileKind: fserr.KindOf(mode)})
	default:
		s.note(Note{Path: dir + "/" + string(name), Kind: NoteSpecial, FileKind: fserr.KindOf(mode)})
	}
}

// regular records the regular file dirfd/nameZ (root-relative path p) that
// statx described as stx: as a leftover of an interrupted deletion, or as
// a File, with its metadata timestamp when enabled and available.
func (s *sink) regular(dirfd int, name []byte, nameZ *byte, p string, stx *unix.Statx_t) {
	if !utf8.Valid(name) {
		s.fail(fserr.OpStat, p, fserr.ErrNotUTF8)
		return
	}
	if bytes.HasPrefix(name, []byte(LeftoverPrefix)) {
		s.leftovers = append(s.leftovers, p)
		return
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
		MntID:           mntOf(stx),
	}
	if s.opts.Metadata && bytes.HasSuffix(name, []byte(".json")) {
		ts, reason, err := s.fileMetadata(dirfd, nameZ, stx)
		switch {
		case reason != "":
			s.note(Note{Path: p, Kind: NoteMetadataUnusable, Reason: reason, Err: err})
		case ts.ok:
			f.Timestamp, f.TimestampSource = ts.sec, SourceMetadata
		}
	}
}

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

// sort flattens the sink's files into sorted, in Path order.
func (s *sink) sort() {
	s.sorted = make([]File, 0, s.files.n)
	for _, ch := range s.files.chunks {
		s.sorted = append(s.sorted, ch...)
	}
	s.files = fileChunks{}
	slices.SortFunc(s.sorted, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
}

// mergeSorted merges runs, each sorted by Path, into one sorted slice.
// Paths are unique across runs (each file is examined once).
func mergeSorted(runs [][]File) []File {
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
		out = append(out, runs[best][0])
		runs[best] = runs[best][1:]
	}
	return out
}
