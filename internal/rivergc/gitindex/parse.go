//go:build linux

package gitindex

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
)

// index is the decoded part of a git index file that river gc needs.
type index struct {
	version int
	// names holds the entry paths in index order, work-tree relative.
	// Sparse-index directory entries keep their trailing "/" and
	// submodules (gitlinks) get one: both cover a subtree. In a split
	// index an entry replacing one of the shared index has an empty name.
	names []string
	// replacements counts the empty names.
	replacements int
	// link is the split-index extension, nil for an ordinary index.
	link *link
}

// Object formats: the size in bytes of an object id.
const (
	sha1Size   = 20
	sha256Size = 32
)

// Mode bits of an index entry.
const (
	modeTypeMask = 0o170000
	modeDir      = 0o040000 // sparse-index directory entry
	modeGitlink  = 0o160000 // submodule commit
)

// Entry flag bits (see git's Documentation/gitformat-index.txt).
const (
	flagExtended = 0x4000
	flagNameMask = 0x0fff
)

// parseIndex decodes a whole index file. hashSize is the repository's
// object id size (sha1Size or sha256Size). It verifies the trailing
// checksum (unless git wrote it as zeros, index.skipHash) and fails with
// ErrCorrupt or ErrUnsupported rather than return part of the entries.
func parseIndex(data []byte, hashSize int) (*index, error) {
	if hashSize != sha1Size && hashSize != sha256Size {
		return nil, fmt.Errorf("%w: object id size %d", ErrUnsupported, hashSize)
	}
	if len(data) < 12+hashSize {
		return nil, fmt.Errorf("%w: %d bytes is shorter than header and checksum", ErrCorrupt, len(data))
	}
	if string(data[:4]) != "DIRC" {
		return nil, fmt.Errorf("%w: signature %q, want \"DIRC\"", ErrCorrupt, data[:4])
	}
	if err := verifyChecksum(data, hashSize); err != nil {
		return nil, err
	}
	ix := &index{version: int(binary.BigEndian.Uint32(data[4:8]))}
	if ix.version < 2 || ix.version > 4 {
		return nil, fmt.Errorf("%w: index version %d", ErrUnsupported, ix.version)
	}
	count := binary.BigEndian.Uint32(data[8:12])
	body := data[:len(data)-hashSize]
	off := 12
	// Every entry takes at least fixed+1 bytes; reject absurd counts
	// before allocating for them.
	fixed := 40 + hashSize + 2
	if uint64(count) > uint64(len(body)-off)/uint64(fixed+1) {
		return nil, fmt.Errorf("%w: %d entries cannot fit in %d bytes", ErrCorrupt, count, len(body))
	}
	ix.names = make([]string, 0, count)
	var prev []byte // v4: the previous path, which the next one edits
	for i := uint32(0); i < count; i++ {
		start := off
		if len(body)-off < fixed {
			return nil, fmt.Errorf("%w: entry %d truncated at offset %d", ErrCorrupt, i, off)
		}
		mode := binary.BigEndian.Uint32(body[off+24 : off+28])
		flags := binary.BigEndian.Uint16(body[off+40+hashSize : off+fixed])
		off += fixed
		if flags&flagExtended != 0 {
			if ix.version < 3 {
				return nil, fmt.Errorf("%w: entry %d has extended flags in a version %d index", ErrCorrupt, i, ix.version)
			}
			if len(body)-off < 2 {
				return nil, fmt.Errorf("%w: entry %d truncated at offset %d", ErrCorrupt, i, off)
			}
			off += 2
		}
		var name []byte
		if ix.version == 4 {
			strip, n := varint(body[off:])
			if n == 0 || strip > uint64(len(prev)) {
				return nil, fmt.Errorf("%w: entry %d has a bad path prefix length at offset %d", ErrCorrupt, i, off)
			}
			off += n
			end := bytes.IndexByte(body[off:], 0)
			if end < 0 {
				return nil, fmt.Errorf("%w: entry %d path is not terminated", ErrCorrupt, i)
			}
			prev = append(prev[:len(prev)-int(strip)], body[off:off+end]...)
			name = prev
			off += end + 1
		} else {
			nameLen := int(flags & flagNameMask)
			end := bytes.IndexByte(body[off:], 0)
			if end < 0 || (nameLen < flagNameMask && end != nameLen) {
				return nil, fmt.Errorf("%w: entry %d path length does not match its flags", ErrCorrupt, i)
			}
			name = body[off : off+end]
			// Entries are padded with 1 to 8 NULs to a multiple of 8.
			size := (off - start + end + 8) &^ 7
			if start+size > len(body) {
				return nil, fmt.Errorf("%w: entry %d padding truncated", ErrCorrupt, i)
			}
			off = start + size
		}
		s := string(name)
		switch {
		case len(name) == 0:
			ix.replacements++
		case mode&modeTypeMask == modeDir:
			if name[len(name)-1] != '/' {
				return nil, fmt.Errorf("%w: directory entry %q without trailing slash", ErrCorrupt, s)
			}
		case name[len(name)-1] == '/':
			return nil, fmt.Errorf("%w: file entry %q with trailing slash", ErrCorrupt, s)
		case mode&modeTypeMask == modeGitlink:
			// A submodule's files are tracked by its own index: cover
			// them all, like a sparse directory.
			s += "/"
		}
		ix.names = append(ix.names, s)
	}
	if err := ix.readExtensions(body[off:], off, hashSize); err != nil {
		return nil, err
	}
	if ix.replacements > 0 && ix.link == nil {
		return nil, fmt.Errorf("%w: %d entries have an empty path", ErrCorrupt, ix.replacements)
	}
	return ix, nil
}

// readExtensions walks the extensions after the entries. Optional ones
// (first letter A-Z) are skipped; required ones must be understood: the
// sparse-directory marker "sdir" and the split index "link" are, anything
// else is ErrUnsupported.
func (ix *index) readExtensions(ext []byte, base, hashSize int) error {
	for len(ext) > 0 {
		if len(ext) < 8 {
			return fmt.Errorf("%w: extension header truncated at offset %d", ErrCorrupt, base)
		}
		sig := string(ext[:4])
		size := binary.BigEndian.Uint32(ext[4:8])
		if uint64(size) > uint64(len(ext)-8) {
			return fmt.Errorf("%w: extension %q size %d exceeds the file", ErrCorrupt, sig, size)
		}
		switch {
		case sig == "sdir":
		case sig == "link":
			l, err := parseLink(ext[8:8+size], hashSize)
			if err != nil {
				return err
			}
			ix.link = l
		case sig[0] >= 'A' && sig[0] <= 'Z':
		default:
			return fmt.Errorf("%w: required extension %q", ErrUnsupported, sig)
		}
		ext = ext[8+size:]
		base += 8 + int(size)
	}
	return nil
}

// verifyChecksum compares the trailing hash with the hash of the rest.
// An all-zero trailer means git skipped it (index.skipHash).
func verifyChecksum(data []byte, hashSize int) error {
	sum := data[len(data)-hashSize:]
	if bytes.Count(sum, []byte{0}) == hashSize {
		return nil
	}
	var h hash.Hash
	if hashSize == sha256Size {
		h = sha256.New()
	} else {
		h = sha1.New()
	}
	h.Write(data[:len(data)-hashSize])
	if !bytes.Equal(h.Sum(nil), sum) {
		return fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
	}
	return nil
}

// varint decodes git's offset varint (as in OFS_DELTA): big-endian 7-bit
// groups where each continuation adds one. It returns the value and the
// bytes used, or n == 0 when the input ends early or overflows.
func varint(b []byte) (v uint64, n int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	v = uint64(c & 0x7f)
	n = 1
	for c&0x80 != 0 {
		if n >= len(b) || n > 9 {
			return 0, 0
		}
		c = b[n]
		n++
		v = ((v + 1) << 7) | uint64(c&0x7f)
	}
	return v, n
}
