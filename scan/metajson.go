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
// field. Anything else — not valid JSON (json.Valid: trailing data
// included), not an object, a recognised key that occurs twice — is an
// error, and the caller falls back to mtime. Only the top level and the
// object "metadata" are inspected; every other value is skipped byte by
// byte, never materialised, so a file costs no allocation unless a key or
// timestamp is written with escapes. It decides exactly as the earlier
// encoding/json token reader did (FuzzParseMetadata compares them).
func parseMetadata(data []byte) (stamp, error) {
	if !json.Valid(data) {
		return stamp{}, errInvalid
	}
	p := jsonCursor{b: data}
	p.space()
	if !p.eat('{') {
		return stamp{}, errNotObject
	}
	var found [numFields]stamp
	var seen [numFields]bool
	seenMetadata := false
	err := p.members(func(key []byte) error {
		switch {
		case keyIs(key, "timestamp"):
			return p.field(fieldTimestamp, &found, &seen)
		case keyIs(key, "generatedAt"):
			return p.field(fieldGeneratedAt, &found, &seen)
		case keyIs(key, "metadata"):
			if seenMetadata {
				return errAmbiguous
			}
			seenMetadata = true
			if p.peek() != '{' {
				p.skipValue()
				return nil
			}
			p.eat('{')
			return p.members(func(key []byte) error {
				switch {
				case keyIs(key, "updatedAt"):
					return p.field(fieldUpdatedAt, &found, &seen)
				case keyIs(key, "createdAt"):
					return p.field(fieldCreatedAt, &found, &seen)
				}
				p.skipValue()
				return nil
			})
		}
		p.skipValue()
		return nil
	})
	if err != nil {
		return stamp{}, err
	}
	for _, s := range found {
		if s.ok {
			return s, nil
		}
	}
	return stamp{}, nil
}

// jsonCursor walks a document that json.Valid accepted, so it needs no
// error handling of its own: every byte it expects is there.
type jsonCursor struct {
	b []byte
	i int
}

func (p *jsonCursor) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonCursor) peek() byte {
	p.space()
	return p.b[p.i]
}

func (p *jsonCursor) eat(c byte) bool {
	if p.peek() == c {
		p.i++
		return true
	}
	return false
}

// members calls f with each raw key (quotes included) of the object whose
// '{' was just consumed; f must consume the member's value. It consumes
// the closing '}'.
func (p *jsonCursor) members(f func(key []byte) error) error {
	if p.eat('}') {
		return nil
	}
	for {
		p.space()
		key := p.str()
		p.eat(':')
		p.space()
		if err := f(key); err != nil {
			return err
		}
		if !p.eat(',') {
			p.eat('}')
			return nil
		}
	}
}

// str consumes a string and returns it raw, quotes included.
func (p *jsonCursor) str() []byte {
	start := p.i
	p.i++ // opening quote
	for p.b[p.i] != '"' {
		if p.b[p.i] == '\\' {
			p.i++
		}
		p.i++
	}
	p.i++
	return p.b[start:p.i]
}

// skipValue consumes one value.
func (p *jsonCursor) skipValue() {
	switch p.peek() {
	case '"':
		p.str()
	case '{', '[':
		for depth := 0; ; {
			switch p.b[p.i] {
			case '"':
				p.str()
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
			p.i++
			if depth == 0 {
				return
			}
		}
	default: // number, true, false, null
		for p.i < len(p.b) && !endsLiteral(p.b[p.i]) {
			p.i++
		}
	}
}

// endsLiteral reports whether c cannot be part of a number or literal.
func endsLiteral(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// field consumes the value of a recognised key and records it when it is a
// string that parses as RFC 3339 (internal/rfc3339: the RFC's grammar,
// floored to whole seconds, also before 1970).
func (p *jsonCursor) field(i int, found *[numFields]stamp, seen *[numFields]bool) error {
	if seen[i] {
		return errAmbiguous
	}
	seen[i] = true
	if p.peek() != '"' {
		p.skipValue()
		return nil
	}
	if sec, ok := rfc3339.Unix(unquote(p.str())); ok {
		found[i] = stamp{sec: sec, ok: true}
	}
	return nil
}

// keyIs compares a raw key with want (plain ASCII).
func keyIs(raw []byte, want string) bool {
	if bytes.IndexByte(raw, '\\') < 0 {
		return len(raw) == len(want)+2 && string(raw[1:len(raw)-1]) == want
	}
	return unquote(raw) == want
}

// unquote decodes a raw JSON string. Escapes are rare in keys and
// timestamps; only then does it allocate (through encoding/json, which
// also replaces invalid UTF-8 exactly as the token reader did).
func unquote(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 && isASCII(raw) {
		return string(raw[1 : len(raw)-1])
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}
