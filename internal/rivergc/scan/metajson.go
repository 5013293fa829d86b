//go:build linux

package scan

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/plangate-gc/plangate-gc/internal/rfc3339"
)

// errNotObject marks a document that is valid JSON but not an object.
var errNotObject = errors.New("not a JSON object")

// errInvalid marks a document that is not valid JSON.
var errInvalid = errors.New("not valid JSON")

// parseMetadata returns the metadata timestamp of the JSON document data.
// A nil error with ok=false means a well-formed object without a usable
// field. Anything else is an error, and the caller falls back to mtime:
// errInvalid for what json.Valid rejects (trailing data included), then
// errNotObject, then errAmbiguous for a recognised key that occurs twice.
// Only the top level and the object "metadata" are inspected.
//
// It is one pass over the bytes that validates exactly as json.Valid does
// (the same grammar and nesting limit) while it picks the fields, and
// allocates nothing unless a key or timestamp is written with escapes.
// FuzzParseMetadata holds it to json.Valid and to the earlier
// encoding/json token reader.
func parseMetadata(data []byte) (stamp, error) {
	p := metaScanner{b: data}
	p.space()
	isObject := p.i < len(p.b) && p.b[p.i] == '{'
	ok := p.value(0, levelTop)
	p.space()
	switch {
	case !ok || p.i != len(p.b):
		return stamp{}, errInvalid
	case !isObject:
		return stamp{}, errNotObject
	case p.ambiguous:
		return stamp{}, errAmbiguous
	}
	for _, s := range p.found {
		if s.ok {
			return s, nil
		}
	}
	return stamp{}, nil
}

// maxDepth is encoding/json's nesting limit: json.Valid rejects a
// document with more than this many open objects and arrays.
const maxDepth = 10000

// The objects whose keys parseMetadata looks at.
const (
	levelTop      = iota // the top-level object
	levelMetadata        // the top-level "metadata" object
	levelOther           // anything else: only validated
)

// metaScanner validates a document and records the recognised fields.
type metaScanner struct {
	b            []byte
	i            int
	found        [numFields]stamp
	seen         [numFields]bool
	seenMetadata bool
	ambiguous    bool // a recognised key occurred twice
}

func (p *metaScanner) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// value consumes one value at nesting depth (open containers around it);
// an object is read as level.
func (p *metaScanner) value(depth, level int) bool {
	if p.i >= len(p.b) {
		return false
	}
	switch c := p.b[p.i]; {
	case c == '{':
		return p.object(depth+1, level)
	case c == '[':
		return p.array(depth + 1)
	case c == '"':
		_, ok := p.str()
		return ok
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c == 't':
		return p.literal("true")
	case c == 'f':
		return p.literal("false")
	case c == 'n':
		return p.literal("null")
	}
	return false
}

// object consumes an object; depth counts it.
func (p *metaScanner) object(depth, level int) bool {
	if depth > maxDepth {
		return false
	}
	p.i++ // '{'
	p.space()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		return true
	}
	for {
		key, ok := p.str()
		if !ok {
			return false
		}
		p.space()
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return false
		}
		p.i++
		p.space()
		if !p.member(key, depth, level) {
			return false
		}
		if more, ok := p.next('}'); !more {
			return ok
		}
	}
}

// next consumes what follows a member or element: a comma (more is true)
// or the closing byte (more false, ok true); anything else is invalid.
func (p *metaScanner) next(closing byte) (more, ok bool) {
	p.space()
	if p.i >= len(p.b) {
		return false, false
	}
	switch p.b[p.i] {
	case ',':
		p.i++
		p.space()
		return true, true
	case closing:
		p.i++
		return false, true
	}
	return false, false
}

// member consumes the value of key in an object read as level.
func (p *metaScanner) member(key []byte, depth, level int) bool {
	field := -1
	switch level {
	case levelTop:
		switch {
		case keyIs(key, "timestamp"):
			field = fieldTimestamp
		case keyIs(key, "generatedAt"):
			field = fieldGeneratedAt
		case keyIs(key, "metadata"):
			if p.seenMetadata {
				p.ambiguous = true
			}
			p.seenMetadata = true
			return p.value(depth, levelMetadata)
		}
	case levelMetadata:
		switch {
		case keyIs(key, "updatedAt"):
			field = fieldUpdatedAt
		case keyIs(key, "createdAt"):
			field = fieldCreatedAt
		}
	}
	if field < 0 {
		return p.value(depth, levelOther)
	}
	if p.seen[field] {
		p.ambiguous = true
	}
	p.seen[field] = true
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return p.value(depth, levelOther)
	}
	raw, ok := p.str()
	if !ok {
		return false
	}
	if sec, ok := rfc3339.Unix(unquote(raw)); ok {
		p.found[field] = stamp{sec: sec, ok: true}
	}
	return true
}

// array consumes an array; depth counts it.
func (p *metaScanner) array(depth int) bool {
	if depth > maxDepth {
		return false
	}
	p.i++ // '['
	p.space()
	if p.i < len(p.b) && p.b[p.i] == ']' {
		p.i++
		return true
	}
	for {
		if !p.value(depth, levelOther) {
			return false
		}
		if more, ok := p.next(']'); !more {
			return ok
		}
	}
}

// str consumes a string and returns it raw, quotes included. Like
// json.Valid it refuses control characters and bad escapes, and lets any
// other byte through (invalid UTF-8 included).
func (p *metaScanner) str() ([]byte, bool) {
	start := p.i
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return nil, false
	}
	p.i++
	for p.i < len(p.b) {
		for p.i < len(p.b) && plain[p.b[p.i]] { // the common bytes, one test each
			p.i++
		}
		if p.i == len(p.b) {
			break
		}
		switch c := p.b[p.i]; {
		case c == '"':
			p.i++
			return p.b[start:p.i], true
		case c < 0x20:
			return nil, false
		case c == '\\':
			p.i++
			if p.i >= len(p.b) {
				return nil, false
			}
			switch p.b[p.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.i++
			case 'u':
				if p.i+5 > len(p.b) || !isHex(p.b[p.i+1]) || !isHex(p.b[p.i+2]) || !isHex(p.b[p.i+3]) || !isHex(p.b[p.i+4]) {
					return nil, false
				}
				p.i += 5
			default:
				return nil, false
			}
		default:
			p.i++
		}
	}
	return nil, false
}

// plain marks the bytes a string may hold as they are: not '"', '\\' or
// a control character.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// number consumes -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (p *metaScanner) number() bool {
	if p.b[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(p.b) && p.b[p.i] == '0':
		p.i++
	case p.digits() == 0:
		return false
	}
	if p.i < len(p.b) && p.b[p.i] == '.' {
		p.i++
		if p.digits() == 0 {
			return false
		}
	}
	if p.i < len(p.b) && (p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		p.i++
		if p.i < len(p.b) && (p.b[p.i] == '+' || p.b[p.i] == '-') {
			p.i++
		}
		if p.digits() == 0 {
			return false
		}
	}
	return true
}

// digits consumes a run of ASCII digits and returns its length.
func (p *metaScanner) digits() int {
	start := p.i
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		p.i++
	}
	return p.i - start
}

func (p *metaScanner) literal(word string) bool {
	if len(p.b)-p.i < len(word) || string(p.b[p.i:p.i+len(word)]) != word {
		return false
	}
	p.i += len(word)
	return true
}

// keyIs compares a raw key with want (plain ASCII).
func keyIs(raw []byte, want string) bool {
	if bytes.IndexByte(raw, '\\') < 0 {
		return len(raw) == len(want)+2 && string(raw[1:len(raw)-1]) == want
	}
	return string(unquote(raw)) == want
}

// unquote decodes a raw JSON string. Escapes are rare in keys and
// timestamps; only then does it allocate (through encoding/json, which
// also replaces invalid UTF-8 exactly as the token reader did).
func unquote(raw []byte) []byte {
	if bytes.IndexByte(raw, '\\') < 0 && isASCII(raw) {
		return raw[1 : len(raw)-1]
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return nil
	}
	return []byte(s)
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}
