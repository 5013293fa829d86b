package gate

import (
	"encoding/binary"
	"hash/maphash"
	"math"
	"unsafe"
)

// keySet detects a repeated key within one object in discard mode, in time
// linear in its keys and in little more memory than their bytes: each key
// is one record (uvarint length, bytes) in text; a short object is
// scanned, a long one is found through an open-addressing table of record
// offsets. The hash seed only decides where a key is probed for, never an
// answer, so output does not depend on it.
type keySet struct {
	text    []byte   // the records, reused after reset
	pending int      // offset of the record intern wrote last
	offs    []uint32 // the records while there are at most linearKeys
	table   []uint32 // past that: record offset + 1, 0 empty; a power of two long
	n       int      // records in table
	seed    maphash.Seed
	// big takes over past 4 GiB of key text, where offsets stop fitting.
	big map[string]struct{}
}

// linearKeys is the number of keys past which a keySet hashes.
const linearKeys = 16

// intern writes b as the pending record and returns it as a string that
// stays valid until reset (p.path holds it while the value is read).
func (s *keySet) intern(b []byte) string {
	s.pending = len(s.text)
	s.text = binary.AppendUvarint(s.text, uint64(len(b)))
	start := len(s.text)
	s.text = append(s.text, b...)
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&s.text[start], len(b))
}

// drop forgets the pending record (a key the caller keeps elsewhere).
func (s *keySet) drop() { s.text = s.text[:s.pending] }

// record returns the bytes of the record at off.
func (s *keySet) record(off int) []byte {
	n, w := binary.Uvarint(s.text[off:])
	return s.text[off+w : off+w+int(n)]
}

// add records k, the key intern returned last, and reports whether the
// object already had it; a repeat's record is dropped again.
func (s *keySet) add(k string) (dup bool) {
	switch {
	case s.big != nil:
		if _, dup = s.big[k]; !dup {
			s.big[k] = struct{}{}
		}
		return dup
	case s.pending >= math.MaxUint32:
		s.toMap()
		return s.add(k)
	case s.table == nil:
		for _, off := range s.offs {
			if string(s.record(int(off))) == k {
				s.text = s.text[:s.pending]
				return true
			}
		}
		s.offs = append(s.offs, uint32(s.pending))
		if len(s.offs) > linearKeys {
			s.seed = maphash.MakeSeed()
			s.table = make([]uint32, 4*linearKeys)
			for _, off := range s.offs {
				s.insert(off)
			}
			s.offs = s.offs[:0]
		}
		return false
	}
	mask := uint64(len(s.table) - 1)
	for i := maphash.String(s.seed, k) & mask; ; i = (i + 1) & mask {
		slot := s.table[i]
		if slot == 0 {
			break
		}
		if string(s.record(int(slot-1))) == k {
			s.text = s.text[:s.pending]
			return true
		}
	}
	s.insert(uint32(s.pending))
	if 2*s.n > len(s.table) { // keep the load at most one half
		old := s.table
		s.table, s.n = make([]uint32, 2*len(old)), 0
		for _, slot := range old {
			if slot != 0 {
				s.insert(slot - 1)
			}
		}
	}
	return false
}

// insert puts the record at off into the table (it is not there yet).
func (s *keySet) insert(off uint32) {
	mask := uint64(len(s.table) - 1)
	i := maphash.Bytes(s.seed, s.record(int(off))) & mask
	for s.table[i] != 0 {
		i = (i + 1) & mask
	}
	s.table[i], s.n = off+1, s.n+1
}

// toMap moves every record into big.
func (s *keySet) toMap() {
	s.big = make(map[string]struct{}, len(s.offs)+s.n)
	for _, off := range s.offs {
		s.big[string(s.record(int(off)))] = struct{}{}
	}
	for _, slot := range s.table {
		if slot != 0 {
			s.big[string(s.record(int(slot-1)))] = struct{}{}
		}
	}
	s.offs, s.table, s.n = s.offs[:0], nil, 0
}

// keepText is the largest record buffer a keySet keeps for the next
// object (the Reader keeps its key sets for the whole stream).
const keepText = 64 << 10

// reset empties s for the next object; a table is dropped, not cleared,
// so that a huge object does not make every later small one pay for it,
// and so is a large buffer.
func (s *keySet) reset() {
	s.text, s.offs, s.table, s.n, s.big, s.pending = s.text[:0], s.offs[:0], nil, 0, nil, 0
	if cap(s.text) > keepText {
		s.text = nil
	}
}
