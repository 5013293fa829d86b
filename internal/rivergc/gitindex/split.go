//go:build linux

package gitindex

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
)

// link is a split index's "link" extension: the shared index it builds
// on and which of the shared entries it deletes or replaces.
type link struct {
	shared  []byte   // object id naming <gitdir>/sharedindex.<hex>
	deleted []uint64 // positions in the shared index, ascending
	replace []uint64 // positions in the shared index, ascending
}

// sharedName returns the shared index's file name in the git directory.
func (l *link) sharedName() string { return "sharedindex." + hex.EncodeToString(l.shared) }

// parseLink decodes a "link" extension: the shared index id, then
// (optionally) the delete and replace EWAH bitmaps.
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
	if l.deleted, b, err = ewah(b); err != nil {
		return nil, err
	}
	if l.replace, b, err = ewah(b); err != nil {
		return nil, err
	}
	if len(b) != 0 {
		return nil, fmt.Errorf("%w: %d stray bytes after the split index bitmaps", ErrCorrupt, len(b))
	}
	return l, nil
}

// ewah decodes one EWAH-compressed bitmap as git stores it (bit count,
// word count, big-endian 64-bit words, position of the last run-length
// word) and returns the set bit positions in ascending order and the rest
// of b.
func ewah(b []byte) ([]uint64, []byte, error) {
	bad := func(why string) ([]uint64, []byte, error) {
		return nil, nil, fmt.Errorf("%w: split index bitmap: %s", ErrCorrupt, why)
	}
	if len(b) < 8 {
		return bad("truncated header")
	}
	bits := uint64(binary.BigEndian.Uint32(b[0:4]))
	words := uint64(binary.BigEndian.Uint32(b[4:8]))
	if words > uint64(len(b)-8)/8 || uint64(len(b)-8)-words*8 < 4 {
		return bad("truncated words")
	}
	w := b[8 : 8+words*8]
	rest := b[8+words*8+4:]
	var set []uint64
	var pos uint64
	for i := uint64(0); i < words; {
		rlw := binary.BigEndian.Uint64(w[i*8:])
		i++
		run := (rlw >> 1) & 0xffffffff
		literals := rlw >> 33
		if run > bits/64+1 {
			return bad("run beyond the bit count")
		}
		if rlw&1 != 0 {
			for k := uint64(0); k < run*64; k++ {
				set = append(set, pos+k)
			}
		}
		pos += run * 64
		if literals > words-i {
			return bad("literal words beyond the end")
		}
		for ; literals > 0; literals-- {
			lit := binary.BigEndian.Uint64(w[i*8:])
			i++
			for k := uint64(0); k < 64; k++ {
				if lit&(1<<k) != 0 {
					set = append(set, pos+k)
				}
			}
			pos += 64
		}
	}
	for _, p := range set {
		if p >= bits {
			return bad("set bit beyond the bit count")
		}
	}
	return set, rest, nil
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
	for _, p := range ix.link.replace {
		if p >= n {
			return nil, fmt.Errorf("%w: split index replaces entry %d of %d", ErrCorrupt, p, n)
		}
	}
	if len(ix.link.replace) != ix.replacements {
		return nil, fmt.Errorf("%w: split index has %d replacements for %d marked entries", ErrCorrupt, ix.replacements, len(ix.link.replace))
	}
	out := &index{version: ix.version, names: make([]string, 0, len(shared.names)+len(ix.names))}
	del := ix.link.deleted
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
