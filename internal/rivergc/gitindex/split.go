//go:build linux

package gitindex

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
)

// link is a split index's "link" extension: the shared index it builds
// on and which of the shared entries it deletes or replaces. The bitmaps
// are kept encoded until the shared index is read: only then is the
// number of entries they may name known, and a bitmap is decoded against
// that bound (a 100-byte bitmap can claim 2^32 set bits).
type link struct {
	shared  []byte // object id naming <gitdir>/sharedindex.<hex>
	deleted []byte // EWAH bitmap of positions in the shared index (nil: none)
	replace []byte // EWAH bitmap of positions in the shared index (nil: none)
}

// sharedName returns the shared index's file name in the git directory.
func (l *link) sharedName() string { return "sharedindex." + hex.EncodeToString(l.shared) }

// parseLink decodes a "link" extension: the shared index id, then
// (optionally) the delete and replace EWAH bitmaps, checked for shape.
func parseLink(b []byte, hashSize int) (*link, error) {
	if len(b) < hashSize {
		return nil, fmt.Errorf("%w: split index link of %d bytes", ErrCorrupt, len(b))
	}
	l := &link{shared: b[:hashSize]}
	b = b[hashSize:]
	if len(b) == 0 {
		return l, nil
	}
	var err error
	if l.deleted, b, err = ewahSplit(b); err != nil {
		return nil, err
	}
	if l.replace, b, err = ewahSplit(b); err != nil {
		return nil, err
	}
	if len(b) != 0 {
		return nil, fmt.Errorf("%w: %d stray bytes after the split index bitmaps", ErrCorrupt, len(b))
	}
	return l, nil
}

func badBitmap(why string) error {
	return fmt.Errorf("%w: split index bitmap: %s", ErrCorrupt, why)
}

// ewahSplit cuts one EWAH-compressed bitmap as git stores it (bit count,
// word count, big-endian 64-bit words, position of the last run-length
// word) off the front of b, checking that its words are all present and
// that every run-length word's literals are. It allocates nothing.
func ewahSplit(b []byte) (bitmap, rest []byte, err error) {
	if len(b) < 8 {
		return nil, nil, badBitmap("truncated header")
	}
	words := uint64(binary.BigEndian.Uint32(b[4:8]))
	if words > uint64(len(b)-8)/8 || uint64(len(b)-8)-words*8 < 4 {
		return nil, nil, badBitmap("truncated words")
	}
	w := b[8 : 8+words*8]
	for i := uint64(0); i < words; {
		literals := binary.BigEndian.Uint64(w[i*8:]) >> 33
		i++
		if literals > words-i {
			return nil, nil, badBitmap("literal words beyond the end")
		}
		i += literals
	}
	return b[:8+words*8+4], b[8+words*8+4:], nil
}

// ewahBits decodes a bitmap cut by ewahSplit into its set bit positions,
// ascending. Every set bit must be below both the bitmap's bit count and
// limit (the number of entries it can name), so the result never holds
// more than limit positions, whatever the bitmap claims.
func ewahBits(bitmap []byte, limit uint64) ([]uint64, error) {
	if bitmap == nil {
		return nil, nil
	}
	limit = min(limit, uint64(binary.BigEndian.Uint32(bitmap[0:4])))
	words := uint64(binary.BigEndian.Uint32(bitmap[4:8]))
	w := bitmap[8 : 8+words*8]
	var set []uint64
	var pos uint64
	add := func(p uint64) error {
		if p >= limit {
			return badBitmap("set bit beyond the entries it can name")
		}
		set = append(set, p)
		return nil
	}
	for i := uint64(0); i < words; {
		rlw := binary.BigEndian.Uint64(w[i*8:])
		i++
		run := (rlw >> 1) & 0xffffffff
		if rlw&1 != 0 && run > 0 {
			if pos+run*64 > limit {
				return nil, badBitmap("a run of set bits beyond the entries it can name")
			}
			for k := uint64(0); k < run*64; k++ {
				set = append(set, pos+k)
			}
		}
		pos += run * 64 // at most 2^32 words of 2^38 bits each: no overflow
		for literals := rlw >> 33; literals > 0; literals-- {
			lit := binary.BigEndian.Uint64(w[i*8:])
			i++
			for k := uint64(0); k < 64; k++ {
				if lit&(1<<k) != 0 {
					if err := add(pos + k); err != nil {
						return nil, err
					}
				}
			}
			pos += 64
		}
	}
	return set, nil
}

// mergeShared applies a split index ix to its shared index: the shared
// entries minus the deleted ones (a replaced entry keeps its name), plus
// ix's own named entries. Counts that do not agree are ErrCorrupt.
func mergeShared(ix, shared *index) (*index, error) {
	if shared.link != nil {
		return nil, fmt.Errorf("%w: a shared index that is itself split", ErrCorrupt)
	}
	if shared.replacements != 0 {
		return nil, fmt.Errorf("%w: a shared index with empty paths", ErrCorrupt)
	}
	n := uint64(len(shared.names))
	replace, err := ewahBits(ix.link.replace, n)
	if err != nil {
		return nil, err
	}
	if len(replace) != ix.replacements {
		return nil, fmt.Errorf("%w: split index has %d replacements for %d marked entries", ErrCorrupt, ix.replacements, len(replace))
	}
	del, err := ewahBits(ix.link.deleted, n)
	if err != nil {
		return nil, err
	}
	out := &index{version: ix.version, names: make([]string, 0, len(shared.names)+len(ix.names))}
	for i, name := range shared.names {
		if len(del) > 0 && del[0] == uint64(i) {
			del = del[1:]
			continue
		}
		out.names = append(out.names, name)
	}
	if len(del) > 0 {
		return nil, fmt.Errorf("%w: split index deletes entry %d of %d", ErrCorrupt, del[0], n)
	}
	for _, name := range ix.names {
		if name != "" {
			out.names = append(out.names, name)
		}
	}
	return out, nil
}
