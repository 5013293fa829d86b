package stores

// This file is the stores' one JSON reader: JSON.parse's grammar, in one
// pass over the bytes, picking the fields the rules read in place.
//
// JSON.parse reads the text readFileSync decoded; every character its
// grammar gives a meaning to is ASCII, and a byte at or above 0x80 (or
// the U+FFFD it decodes to) is legal only inside a string, so the grammar
// is checked on the bytes themselves. Keys match exactly (after their
// escapes are decoded), and the last of repeated keys wins at every
// depth: a repeated "context" replaces the whole earlier object.

// readDepth bounds nesting (open objects and arrays). JSON.parse has no
// such limit; a deeper document is one this reader cannot read, which
// keeps it (the memory index whole, a ledger line as unreadable).
const readDepth = 10000

// kind is a JSON value's type; absent is a key that does not occur.
type kind uint8

const (
	absent kind = iota
	null
	falseKind
	trueKind
	number
	stringKind
	object
	array
)

// value is a picked field: its kind and, for a string, its raw content
// between the quotes (which starts at offset at of the text); for a
// number, its text.
type value struct {
	kind kind
	raw  []byte
	at   int
}

// The fields the rules read. Memory: an entry's own (fID…fContext), its
// metadata's (fUpdatedAt, fCreatedAt) and its context's (fActive…
// fAction). Ledger: a line's timestamp (fTimestamp).
const (
	fID = iota
	fType
	fStatus
	fSupersededBy
	fExpiresAt
	fMetadata
	fContext
	fUpdatedAt
	fCreatedAt
	fActive
	fCtxExpiresAt
	fSuppressionID
	fAction
	numFields
	fTimestamp = 0
)

// level says which keys of an object are picked, into which slots.
type level struct {
	names []string
	slot  []int
}

var (
	entryLevel    = &level{[]string{"id", "type", "status", "supersededBy", "expiresAt", "metadata", "context"}, []int{fID, fType, fStatus, fSupersededBy, fExpiresAt, fMetadata, fContext}}
	metadataLevel = &level{[]string{"updatedAt", "createdAt"}, []int{fUpdatedAt, fCreatedAt}}
	contextLevel  = &level{[]string{"active", "expiresAt", "suppressionId", "action"}, []int{fActive, fCtxExpiresAt, fSuppressionID, fAction}}
	lineLevel     = &level{[]string{"timestamp"}, []int{fTimestamp}}
)

// stop marks the bytes that end a string's plain run.
var stop = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// reader is a cursor over a JSON text.
type reader struct {
	b     []byte
	i     int
	depth int
}

func (r *reader) space() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// value reads one value; an object is picked by lv (nil: only
// validated) into out.
func (r *reader) value(lv *level, out *[numFields]value) (value, bool) {
	if r.i >= len(r.b) {
		return value{}, false
	}
	start := r.i
	switch c := r.b[r.i]; {
	case c == '{':
		return value{kind: object}, r.object(lv, out)
	case c == '[':
		return value{kind: array}, r.array()
	case c == '"':
		raw, ok := r.str()
		return value{kind: stringKind, raw: raw, at: start + 1}, ok
	case c == '-' || c >= '0' && c <= '9':
		ok := r.number()
		return value{kind: number, raw: r.b[start:r.i]}, ok
	case c == 't':
		return value{kind: trueKind}, r.literal("true")
	case c == 'f':
		return value{kind: falseKind}, r.literal("false")
	case c == 'n':
		return value{kind: null}, r.literal("null")
	}
	return value{}, false
}

// object reads an object; with lv, the value of each of lv's keys goes
// to its slot (the last occurrence wins), and an object under "metadata"
// or "context" is picked in turn.
func (r *reader) object(lv *level, out *[numFields]value) bool {
	if empty, ok := r.open('}'); !ok || empty {
		return ok
	}
	for {
		if r.i >= len(r.b) || r.b[r.i] != '"' {
			return false
		}
		key, ok := r.str()
		if !ok {
			return false
		}
		r.space()
		if r.i >= len(r.b) || r.b[r.i] != ':' {
			return false
		}
		r.i++
		r.space()
		slot := -1
		if lv != nil {
			slot = lv.find(key)
		}
		var v value
		switch {
		case slot < 0:
			v, ok = r.value(nil, nil)
		case slot == fMetadata && lv == entryLevel:
			v, ok = r.sub(metadataLevel, out)
		case slot == fContext && lv == entryLevel:
			v, ok = r.sub(contextLevel, out)
		default:
			v, ok = r.value(nil, nil)
		}
		if !ok {
			return false
		}
		if slot >= 0 {
			out[slot] = v
		}
		if more, ok := r.next('}'); !more {
			return ok
		}
	}
}

// open enters a container at its opening bracket (counting its depth):
// empty when it closes at once (with close), ok false beyond readDepth.
func (r *reader) open(close byte) (empty, ok bool) {
	if r.depth++; r.depth > readDepth {
		return false, false
	}
	r.i++
	r.space()
	if r.i < len(r.b) && r.b[r.i] == close {
		r.i++
		r.depth--
		return true, true
	}
	return false, true
}

// next reads what follows a container's member: a comma (more), or the
// closing bracket close (not more, ok), or anything else (not ok).
func (r *reader) next(close byte) (more, ok bool) {
	r.space()
	switch {
	case r.i >= len(r.b):
		return false, false
	case r.b[r.i] == ',':
		r.i++
		r.space()
		return true, true
	case r.b[r.i] == close:
		r.i++
		r.depth--
		return false, true
	}
	return false, false
}

// sub reads the value of a nested picked object: its earlier occurrence's
// fields are forgotten first (the last occurrence wins whole).
func (r *reader) sub(lv *level, out *[numFields]value) (value, bool) {
	for _, s := range lv.slot {
		out[s] = value{}
	}
	if r.i < len(r.b) && r.b[r.i] == '{' {
		return value{kind: object}, r.object(lv, out)
	}
	return r.value(nil, nil)
}

// find returns the slot of a key (raw string content), -1 if not picked.
func (lv *level) find(key []byte) int {
	if !plain(key) {
		k := decodeString(key)
		for n, name := range lv.names {
			if k == name {
				return lv.slot[n]
			}
		}
		return -1
	}
	for n, name := range lv.names {
		if string(key) == name {
			return lv.slot[n]
		}
	}
	return -1
}

func (r *reader) array() bool {
	if empty, ok := r.open(']'); !ok || empty {
		return ok
	}
	for {
		if _, ok := r.value(nil, nil); !ok {
			return false
		}
		if more, ok := r.next(']'); !more {
			return ok
		}
	}
}

// str reads a string at '"' and returns its raw content.
func (r *reader) str() ([]byte, bool) {
	r.i++ // '"'
	start := r.i
	for r.i < len(r.b) {
		c := r.b[r.i]
		if !stop[c] {
			r.i++
			continue
		}
		switch {
		case c == '"':
			r.i++
			return r.b[start : r.i-1], true
		case c < 0x20:
			return nil, false
		}
		// '\\'
		if r.i+1 >= len(r.b) {
			return nil, false
		}
		switch r.b[r.i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			r.i += 2
		case 'u':
			if r.i+6 > len(r.b) {
				return nil, false
			}
			for _, h := range r.b[r.i+2 : r.i+6] {
				if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
					return nil, false
				}
			}
			r.i += 6
		default:
			return nil, false
		}
	}
	return nil, false
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?.
func (r *reader) number() bool {
	if r.b[r.i] == '-' {
		r.i++
	}
	switch {
	case r.i < len(r.b) && r.b[r.i] == '0':
		r.i++
	case r.digits() == 0:
		return false
	}
	if r.i < len(r.b) && r.b[r.i] == '.' {
		r.i++
		if r.digits() == 0 {
			return false
		}
	}
	if r.i < len(r.b) && (r.b[r.i] == 'e' || r.b[r.i] == 'E') {
		r.i++
		if r.i < len(r.b) && (r.b[r.i] == '+' || r.b[r.i] == '-') {
			r.i++
		}
		if r.digits() == 0 {
			return false
		}
	}
	return true
}

func (r *reader) digits() int {
	n := 0
	for r.i < len(r.b) && r.b[r.i] >= '0' && r.b[r.i] <= '9' {
		r.i++
		n++
	}
	return n
}

func (r *reader) literal(lit string) bool {
	if len(r.b)-r.i < len(lit) || string(r.b[r.i:r.i+len(lit)]) != lit {
		return false
	}
	r.i += len(lit)
	return true
}
