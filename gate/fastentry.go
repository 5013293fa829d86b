package gate

import (
	"unicode/utf8"
	"unsafe"

	"github.com/plangate-gc/plangate-gc/skill"
)

// fastWindow is how far ahead fastEntry looks for one whole element; a
// longer element takes the general path.
const fastWindow = 4096

// Keys of a plain entry, as bits of a mask.
const (
	keyPath = 1 << iota
	keySize
	keyMtime
	keyType
)

// maxUnknown is how many unknown keys a plain entry may have.
const maxUnknown = 8

// fastEntry is the byte-level fast path of one /inventory/paths element:
// when the buffered input holds a plain entry — the keys path, sizeBytes,
// mtimeEpoch and type, each once; an unescaped valid UTF-8 path; plain
// decimal integers within ±(2^53−1); type "file" or "dir"; and at most
// maxUnknown other keys, unescaped and distinct, each holding an
// unescaped string, a number, true, false or null — it is
// converted to a skill.Entry directly and consumed. Everything it accepts
// the entry subschema accepts and the general path would convert to the
// same Entry (the tests hold it to both); anything else is declined
// (ok=false) with nothing consumed, and the general path decides.
func (p *parser) fastEntry() bool {
	// Only what is already buffered: peeking further could meet a read
	// error here, which the general path must see and report.
	b, _ := p.r.Peek(min(p.r.Buffered(), fastWindow))
	e, path, n, ok := scanEntry(b)
	if !ok {
		return false
	}
	e.Path = p.paths.string(path)
	p.r.Discard(n) //nolint:errcheck // peeked
	p.off += int64(n)
	p.onEntry(e)
	p.items++
	return true
}

// scanEntry parses a plain entry at the start of b (after optional
// whitespace) and returns it (Path left empty), the path's bytes within b,
// and the number of bytes the entry spans.
func scanEntry(b []byte) (e skill.Entry, path []byte, n int, ok bool) {
	k := skipWS(b, 0)
	if k >= len(b) || b[k] != '{' {
		return e, nil, 0, false
	}
	seen := 0
	var unknown unknownKeys
	for k++; ; {
		k = skipWS(b, k)
		if k >= len(b) || b[k] != '"' {
			return e, nil, 0, false
		}
		key, next, ok := plainString(b, k)
		if !ok {
			return e, nil, 0, false
		}
		bit, ok := unknown.bit(key)
		if !ok || seen&bit != 0 {
			return e, nil, 0, false
		}
		seen |= bit
		k = skipWS(b, next)
		if k >= len(b) || b[k] != ':' {
			return e, nil, 0, false
		}
		k = skipWS(b, k+1)
		if k >= len(b) {
			return e, nil, 0, false
		}
		switch bit {
		case 0:
			next, ok := plainScalar(b, k)
			if !ok {
				return e, nil, 0, false
			}
			k = next
		case keyPath:
			s, next, ok := plainString(b, k)
			if !ok || len(s) == 0 {
				return e, nil, 0, false
			}
			path, k = s, next
		case keySize:
			v, next, ok := plainInt(b, k)
			if !ok || v < 0 {
				return e, nil, 0, false
			}
			e.SizeBytes, k = uint64(v), next
		case keyMtime:
			if len(b)-k >= 4 && string(b[k:k+4]) == "null" {
				k += 4
				break
			}
			v, next, ok := plainInt(b, k)
			if !ok {
				return e, nil, 0, false
			}
			e.Mtime, e.MtimeKnown, k = v, true, next
		case keyType:
			s, next, ok := plainString(b, k)
			if !ok || (string(s) != "file" && string(s) != "dir") {
				return e, nil, 0, false
			}
			e.Dir, k = string(s) == "dir", next
		}
		k = skipWS(b, k)
		if k >= len(b) {
			return e, nil, 0, false
		}
		switch b[k] {
		case ',':
			k++
			continue
		case '}':
			if seen&(keyPath|keySize|keyMtime) != keyPath|keySize|keyMtime {
				return e, nil, 0, false
			}
			return e, path, k + 1, true
		}
		return e, nil, 0, false
	}
}

// unknownKeys are the keys of an entry that are none of a plain entry's.
type unknownKeys struct {
	keys [maxUnknown][]byte
	n    int
}

// bit is key's bit in the mask of a plain entry's keys, 0 for another
// key, which is remembered; ok is false for another key seen before or
// one too many.
func (u *unknownKeys) bit(key []byte) (bit int, ok bool) {
	switch string(key) {
	case "path":
		return keyPath, true
	case "sizeBytes":
		return keySize, true
	case "mtimeEpoch":
		return keyMtime, true
	case "type":
		return keyType, true
	}
	// Forward compatibility (SPEC A2): checked like the general path
	// checks it, a repeat included, and not kept.
	for _, k := range u.keys[:u.n] {
		if string(k) == string(key) {
			return 0, false
		}
	}
	if u.n == maxUnknown {
		return 0, false
	}
	u.keys[u.n] = key
	u.n++
	return 0, true
}

// plainScalar returns the index after the scalar starting at b[k] when
// it is an unescaped string (as plainString), a number in JSON's grammar,
// true, false or null, followed by a byte that can follow a value.
func plainScalar(b []byte, k int) (next int, ok bool) {
	switch c := b[k]; {
	case c == '"':
		_, next, ok = plainString(b, k)
		return next, ok
	case c == '-' || (c >= '0' && c <= '9'):
		next, ok = jsonNumber(b, k)
	default:
		for _, lit := range []string{"true", "false", "null"} {
			if len(b)-k >= len(lit) && string(b[k:k+len(lit)]) == lit {
				next, ok = k+len(lit), true
			}
		}
	}
	if !ok || next >= len(b) {
		return 0, false
	}
	switch b[next] {
	case ',', '}', ' ', '\t', '\n', '\r':
		return next, true
	}
	return 0, false
}

// jsonNumber returns the index after the number starting at b[k]:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func jsonNumber(b []byte, k int) (int, bool) {
	digits := func(k int) int {
		for k < len(b) && b[k] >= '0' && b[k] <= '9' {
			k++
		}
		return k
	}
	if k < len(b) && b[k] == '-' {
		k++
	}
	switch {
	case k < len(b) && b[k] == '0':
		k++
	case k < len(b) && b[k] >= '1' && b[k] <= '9':
		k = digits(k)
	default:
		return 0, false
	}
	if k < len(b) && b[k] == '.' {
		if end := digits(k + 1); end > k+1 {
			k = end
		} else {
			return 0, false
		}
	}
	if k < len(b) && (b[k] == 'e' || b[k] == 'E') {
		k++
		if k < len(b) && (b[k] == '+' || b[k] == '-') {
			k++
		}
		if end := digits(k); end > k {
			k = end
		} else {
			return 0, false
		}
	}
	return k, true
}

func skipWS(b []byte, k int) int {
	for k < len(b) && (b[k] == ' ' || b[k] == '\t' || b[k] == '\n' || b[k] == '\r') {
		k++
	}
	return k
}

// plainString returns the contents of the string starting at b[k] == '"'
// when it has no escape and no control character and is valid UTF-8, and
// the index after its closing quote.
func plainString(b []byte, k int) (s []byte, next int, ok bool) {
	if k >= len(b) || b[k] != '"' {
		return nil, 0, false
	}
	ascii := true
	for i := k + 1; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '"':
			s = b[k+1 : i]
			if !ascii && !utf8.Valid(s) {
				return nil, 0, false
			}
			return s, i + 1, true
		case c == '\\' || c < 0x20:
			return nil, 0, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return nil, 0, false
}

// plainInt parses an integer in plain decimal form (optional '-', no
// leading zero, no fraction or exponent) within ±(2^53−1).
func plainInt(b []byte, k int) (v int64, next int, ok bool) {
	neg := false
	if k < len(b) && b[k] == '-' {
		neg, k = true, k+1
	}
	start := k
	for k < len(b) && b[k] >= '0' && b[k] <= '9' {
		if k-start >= 16 {
			return 0, 0, false
		}
		v = v*10 + int64(b[k]-'0')
		k++
	}
	switch {
	case k == start, k >= len(b), b[start] == '0' && k-start > 1, v > maxSafe:
		return 0, 0, false
	}
	switch b[k] {
	case '.', 'e', 'E', '+', '-':
		return 0, 0, false
	}
	if neg {
		v = -v
	}
	return v, k, true
}

// arenaBlock is the largest block path strings are carved from; the first
// is arenaFirst bytes and each next one twice the last, so that a tiny
// document pays for a tiny block (SPEC B4: no fixed cost per document).
const (
	arenaFirst = 4 << 10
	arenaBlock = 1 << 20
)

// arena makes strings out of large shared blocks: a million paths cost a
// few dozen allocations, not a million, and no size-class rounding. A
// block is only ever appended to, so the bytes under a string never
// change; the Reader keeps one arena for all its documents.
type arena struct{ block []byte }

func (a *arena) string(b []byte) string {
	if len(b) == 0 || len(b) > arenaBlock/16 {
		return string(b)
	}
	if cap(a.block)-len(a.block) < len(b) {
		size := max(min(max(2*cap(a.block), arenaFirst), arenaBlock), len(b))
		a.block = make([]byte, 0, size)
	}
	start := len(a.block)
	a.block = append(a.block, b...)
	return unsafe.String(&a.block[start], len(b))
}
