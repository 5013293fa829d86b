//go:build linux

package scan

import (
	"errors"

	"github.com/plangate-gc/plangate-gc/internal/eintr"

	"golang.org/x/sys/unix"
)

// MetadataByteCap is the most bytes scan reads from one *.json file to find
// its metadata timestamp. Artifacts that carry a timestamp are small
// documents; a bigger file (embeddings, snapshots) is judged by its mtime
// without being read, which bounds the time and memory a scan can spend.
const MetadataByteCap = 1 << 20

// The recognised fields in precedence order (SPEC Part B): the first one
// that is present and parses as RFC 3339 wins, whatever their order in the
// file.
const (
	fieldTimestamp   = iota // top-level "timestamp" (Review Artifact, eval ledger)
	fieldUpdatedAt          // "metadata": {"updatedAt"} (Riverbed entries)
	fieldCreatedAt          // "metadata": {"createdAt"} (Riverbed entries)
	fieldGeneratedAt        // top-level "generatedAt" (Riverbed index)
	numFields
)

// stamp is the outcome of reading one file's metadata.
type stamp struct {
	sec int64
	ok  bool
}

// errAmbiguous marks a document in which a recognised key occurs twice.
var errAmbiguous = errors.New("a timestamp field occurs more than once")

// fileMetadata reads the metadata timestamp of the regular file
// dirfd/nameZ, which statx described as st. It returns a reason (and the
// system error, if any) when the file could not be used (too big,
// unopenable, changed, not JSON), and ok=false without a reason when the
// JSON simply has no usable field. The file is opened with
// O_NOFOLLOW|O_NONBLOCK and re-checked on the descriptor, so a name
// swapped for a symlink or FIFO is never followed and an open never blocks.
func (s *sink) fileMetadata(dirfd int, nameZ *byte, st *unix.Statx_t) (stamp, MetaReason, error) {
	if st.Size > MetadataByteCap {
		return stamp{}, ReasonTooLarge, nil
	}
	fd, err := openatZ(dirfd, nameZ, openFileFlags)
	if err != nil {
		return stamp{}, ReasonOpen, err
	}
	defer unix.Close(fd)
	var now unix.Statx_t
	if err := fstatx(fd, &now); err != nil {
		return stamp{}, ReasonStat, err
	}
	if now.Mode&unix.S_IFMT != unix.S_IFREG || devOf(&now) != devOf(st) || now.Ino != st.Ino {
		return stamp{}, ReasonReplaced, nil
	}
	return s.readMetadata(fd, st.Size)
}

// readMetadata reads the metadata timestamp from fd, an open regular file
// that fstatx found size bytes long (reasons as for fileMetadata).
func (s *sink) readMetadata(fd int, size uint64) (stamp, MetaReason, error) {
	if size > MetadataByteCap {
		return stamp{}, ReasonTooLarge, nil
	}
	data, err := s.readAll(fd, size)
	switch {
	case err != nil:
		return stamp{}, ReasonRead, err
	case len(data) > MetadataByteCap:
		return stamp{}, ReasonGrew, nil
	}
	ts, err := parseMetadata(data)
	switch {
	case errors.Is(err, errAmbiguous):
		return stamp{}, ReasonAmbiguous, nil
	case err != nil:
		return stamp{}, ReasonInvalid, nil
	}
	return ts, "", nil
}

// readAll reads the open file fd, which statx found size bytes long, into
// the walker's reusable buffer: at most MetadataByteCap+1 bytes, so that a
// file that grew beyond the cap after statx is recognised by its length.
// A short read ends it: read(2) on a regular file returns fewer bytes than
// asked only at the end of the file (EINTR is retried), which saves the
// final read of 0 bytes per file.
func (s *sink) readAll(fd int, size uint64) ([]byte, error) {
	want := min(int(size), MetadataByteCap) + 512
	if cap(s.meta) < want {
		s.meta = make([]byte, 0, max(want, 64<<10))
	}
	buf := s.meta[:0]
	for len(buf) <= MetadataByteCap {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)] // grow
			s.meta = buf
		}
		end := min(cap(buf), MetadataByteCap+1)
		n, err := eintr.Value(func() (int, error) { return unix.Read(fd, buf[len(buf):end]) })
		if err != nil {
			return nil, err
		}
		if n == 0 {
			break
		}
		short := len(buf)+n < end
		buf = buf[:len(buf)+n]
		if short { // a regular file reads short only at its end: skip the read of 0
			break
		}
	}
	s.meta = buf[:0]
	return buf, nil
}
