// Package stores reads the two single sources whose entries river gc
// judges one by one (SPEC D2): the Riverbed index
// (.river/memory/index.json, scope memory-entries) and the eval ledger
// (artifacts/evals/results.jsonl, scope eval-ledger). It names every
// entry, sizes and dates it, says which entries must stay (D3, D4) and
// splices removed entries out of the original bytes (D5).
//
// Both stores are read as upstream's JavaScript reads them (SPEC B6): the
// bytes decoded as readFileSync(p, 'utf-8') decodes them, parsed by
// JSON.parse's grammar with exact keys and the last repeated key winning,
// strings compared as UTF-16 code units (held as WTF-8, jsstring.go),
// ledger lines blank by String.prototype.trim, expiries and times as
// JavaScript's Date and upstream's comparisons read them (jsvalue.go).
// One reader does it (jsread.go), in one pass, picking the fields in
// place. A value it cannot read the way upstream does keeps its entry
// (Entry.Undecided, Entry.Unreadable).
//
// The API: ParseMemory and ParseLedger read a store; Store.Guards,
// Referenced and Refers give what must stay; Undecided and Unreadable
// what is kept for want of a reading; Splice writes the store without
// removed entries; MemoryName, LineName and EscapeID make entry names.
//
// It is pure: it gets the file's bytes and the reference time and does
// no I/O; reading and rewriting the file is package rewrite's job.
package stores

import (
	"strconv"
	"strings"
	"unsafe"
)

// Entry is one judged unit inside a store.
type Entry struct {
	// Name is the entry's stable name: the store's path, "#", and the
	// escaped id (memory) or the 1-based line number (ledger). Neither is
	// held beside it: ID and Line read them from it.
	Name string
	// Start and End delimit the entry's serialized bytes in the file; for
	// the ledger End includes the line's newline.
	Start, End int
	// Timestamp is the entry's own time in epoch seconds, valid when
	// Stamped; RawTimestamp returns its text (the ledger's "timestamp").
	Timestamp int64
	Stamped   bool
	// Live entries are never candidates (D3 live knowledge, D4 the newest
	// two lines, an entry that cannot be read or named).
	Live bool
	// Expired: a memory entry whose expiresAt (or context.expiresAt) is
	// at or before now; it is a candidate whatever its status, unless it
	// is a suppression findActiveSuppressions still applies (decision 74).
	Expired bool
	// Undecided: a memory entry kept because a value that decides its
	// fate (an expiry) is one river gc cannot read the way upstream's
	// JavaScript reads it (SPEC B6); named in a warning.
	Undecided bool
	// Unreadable: a ledger line that is not a JSON object with an RFC 3339
	// timestamp (kept and named in a warning).
	Unreadable bool

	// ledger: a ledger line, not a memory entry.
	ledger bool
	// tsOff is where the ledger timestamp's string starts (its opening
	// quote), from Start; farOff when that is too far for 16 bits: then
	// RawTimestamp reads the line again. Lines are read in place, so the
	// text is not copied, and the entry stays 48 bytes.
	tsOff uint16
}

// Line is the ledger line's 1-based number (0 for a memory entry), read
// from its name.
func (e Entry) Line() int {
	if !e.ledger {
		return 0
	}
	n := 0
	for _, c := range []byte(e.Name[strings.LastIndexByte(e.Name, '#')+1:]) {
		n = n*10 + int(c-'0')
	}
	return n
}

// farOff marks a timestamp that starts too far into its line for tsOff.
const farOff = 1<<16 - 1

// RawTimestamp is the text of a stamped ledger line's "timestamp" (its
// JSON string decoded), "" for any other entry; data must be the bytes
// the store was parsed from. It is decoded on demand, so that a store of
// a million lines holds no million copies.
func (e Entry) RawTimestamp(data []byte) string {
	if !e.Stamped || !e.ledger {
		return ""
	}
	end := e.End
	if end > e.Start && data[end-1] == '\n' {
		end--
	}
	if e.tsOff == farOff {
		var f [numFields]value
		ts, _ := lineTimestamp(data, e.Start, end, &f)
		return ts.text()
	}
	r := reader{b: data[:end], i: e.Start + int(e.tsOff)}
	raw, _ := r.str()
	return decodeString(raw)
}

// ID is the memory entry's id: its name's part after the store's "#",
// unescaped (EscapeID writes every byte it changes as %XX, "%" included,
// so the name alone gives the id back). It is "" for a ledger line and
// for an element named by its position (an id never names it).
func (e Entry) ID() string {
	if e.ledger {
		return ""
	}
	k := strings.LastIndexByte(e.Name, '#') // an escaped id holds no "#"
	esc := e.Name[k+1:]
	if strings.HasPrefix(esc, "[") { // positionName: "[" is always escaped in an id
		return ""
	}
	if strings.IndexByte(esc, '%') < 0 {
		return esc // written as itself: the name's own bytes
	}
	b := make([]byte, 0, len(esc))
	for i := 0; i < len(esc); i++ {
		if c := esc[i]; c != '%' || i+2 >= len(esc) {
			b = append(b, c)
			continue
		}
		hi, lo := unhex(esc[i+1]), unhex(esc[i+2])
		b = append(b, hi<<4|lo)
		i += 2
	}
	return string(b)
}

// unhex is the value of an upper-case hexadecimal digit, as EscapeID
// writes them.
func unhex(c byte) byte {
	if c >= 'A' {
		return c - 'A' + 10
	}
	return c - '0'
}

// ref is one reference of a memory entry (by index) to a name: its
// supersededBy, the suppression a resurface names, a resurface naming a
// suppression. Most entries have none, so they are kept beside the
// entries rather than in each.
type ref struct {
	from int
	to   string
}

// Size is the number of bytes of the entry's serialized form.
func (e Entry) Size() int { return e.End - e.Start }

// Store is one parsed single source.
type Store struct {
	// Path is the store's root-relative path.
	Path    string
	Entries []Entry
	refs    []ref
	// open and close are the offsets of the memory index's entries array
	// brackets ('[' and ']'); -1 for the ledger.
	open, close int
}

// idSafe reports whether an id byte is written as itself in a name.
func idSafe(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~:@+", c) >= 0
}

// EscapeID writes an id so that the entry's name is a canonical path of
// one segment below the store: every byte outside A–Z a–z 0–9 and
// "-._~:@+" becomes %XX (upper-case hex). "." and ".." are escaped whole.
func EscapeID(id string) string {
	if id == "." || id == ".." {
		return strings.Repeat("%2E", len(id))
	}
	safe := true
	for i := 0; i < len(id) && safe; i++ {
		safe = idSafe(id[i])
	}
	if safe {
		return id
	}
	var b strings.Builder
	for i := 0; i < len(id); i++ {
		if c := id[i]; idSafe(c) {
			b.WriteByte(c)
		} else {
			b.WriteString("%" + strings.ToUpper(strconv.FormatUint(uint64(c)|0x100, 16)[1:]))
		}
	}
	return b.String()
}

// MemoryName is the name of the memory entry with this id.
func MemoryName(store, id string) string { return store + "#" + EscapeID(id) }

// positionName names a memory element without a usable id by its 1-based
// position; "[" is always escaped in ids, so it cannot collide.
func positionName(store string, n int) string { return store + "#[" + strconv.Itoa(n) + "]" }

// names holds the entry names of one store in shared blocks: one string a
// name would round each up to its size class (a position name of 34
// bytes takes 48: 4 MB more at 300,000 elements) and cost an allocation.
// A block lives as long as a name in it, and the names as long as the
// store.
type names struct{ block []byte }

// namesBlock is the size of one block of names.
const namesBlock = 64 << 10

// memoryName is MemoryName(store, id), or positionName(store, n) when n
// > 0, written into the blocks.
func (a *names) memoryName(store, id string, n int) string {
	need := len(store) + 3 + 20 + 3*len(id)
	if cap(a.block)-len(a.block) < need {
		a.block = make([]byte, 0, max(namesBlock, need))
	}
	start := len(a.block)
	a.block = append(append(a.block, store...), '#')
	if n > 0 {
		a.block = append(strconv.AppendInt(append(a.block, '['), int64(n), 10), ']')
	} else {
		a.block = append(a.block, EscapeID(id)...)
	}
	return unsafe.String(&a.block[start], len(a.block)-start)
}

// LineName is the name of the ledger line with this 1-based number.
func LineName(store string, line int) string { return store + "#" + strconv.Itoa(line) }
