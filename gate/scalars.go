package gate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/plangate-gc/plangate-gc/internal/jsonesc"
)

// The scalar tokens of the strict parser: literals, numbers (kept as their
// literal text) and strings (escapes, surrogates, UTF-8 validation).

func (p *parser) literal() (any, error) {
	for _, lit := range []struct {
		text string
		v    any
	}{{"true", true}, {"false", false}, {"null", nil}} {
		b, err := p.peek(len(lit.text))
		if err != nil {
			return nil, err
		}
		if string(b) == lit.text {
			p.r.Discard(len(lit.text)) //nolint:errcheck
			p.off += int64(len(lit.text))
			return lit.v, nil
		}
	}
	return nil, p.fail("invalid character where a value was expected")
}

func (p *parser) number() (any, error) {
	if p.discard > 0 && !p.buildAll {
		return nil, p.skipNumber()
	}
	buf := p.scratch[:0]
	defer func() { p.scratch = buf }()
	for {
		c, err := p.r.ReadByte()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, p.ioFail(err)
		}
		if numberByte(c) {
			p.off++
			buf = append(buf, c)
			continue
		}
		_ = p.r.UnreadByte()
		break
	}
	n, ok := parseNumber(string(buf))
	if !ok {
		return nil, p.fail(fmt.Sprintf("invalid number %q", shorten(string(buf))))
	}
	if n.Safe() != n.Literal {
		p.unsafe = true
	}
	return json.Number(n.Literal), nil
}

// numberByte reports whether c can be part of a number token: the token
// is every such byte in a row, then checked as a whole.
func numberByte(c byte) bool {
	return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// str parses a string value (the opening quote is peeked), rejecting
// control characters, invalid UTF-8 and escaped lone surrogates; in
// discard mode it checks the same and builds nothing (nil).
func (p *parser) str() (any, error) {
	if p.discard > 0 && !p.buildAll {
		_, err := p.scan(false, nil)
		return nil, err
	}
	s, err := p.scan(true, nil)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// key parses an object key, which is always built: duplicate keys are
// found by it. In discard mode it is carved from keys, which lives until
// the object ends (keySet.reset).
func (p *parser) key(keys *keySet) (string, error) {
	return p.scan(true, keys)
}

// scan reads one string; build selects whether its value is kept, in keys
// when given, else in a string of its own.
func (p *parser) scan(build bool, keys *keySet) (string, error) {
	p.read() //nolint:errcheck
	buf := p.scratch[:0]
	defer func() { p.scratch = buf }()
	bad := false
	for {
		c, err := p.read()
		if err != nil {
			return "", err
		}
		if !build && len(buf) > 0 {
			buf = buf[:0]
		}
		switch {
		case c == '"':
			if bad {
				p.problem(CodeUTF8, "string is not valid UTF-8")
			}
			switch {
			case !build:
				return "", nil
			case keys != nil:
				return keys.intern(buf), nil
			}
			return intern(buf), nil
		case c < 0x20:
			return "", p.fail("control character in string")
		case c == '\\':
			e, err := p.read()
			if err != nil {
				return "", err
			}
			if s, ok := jsonesc.Simple(e); ok {
				buf = append(buf, s)
				continue
			}
			if e != 'u' {
				return "", p.fail("invalid escape in string")
			}
			r, err := p.unicodeEscape()
			if err != nil {
				return "", err
			}
			buf = appendCodePoint(buf, r)
		case c >= utf8.RuneSelf:
			// Check raw multi-byte sequences here: buf also holds escaped
			// lone surrogates, which are allowed and must not be flagged.
			p.unread()
			r, size, err := p.rawRune()
			if err != nil {
				return "", err
			}
			if r == utf8.RuneError && size == 1 {
				bad = true
				buf = append(buf, c)
				continue
			}
			buf = utf8.AppendRune(buf, r)
		default:
			buf = append(buf, c)
		}
	}
}

// rawRune reads one UTF-8 sequence from the input; an invalid byte is
// returned as (RuneError, 1).
func (p *parser) rawRune() (rune, int, error) {
	b, err := p.peek(utf8.UTFMax)
	if err != nil {
		return 0, 0, err
	}
	r, size := utf8.DecodeRune(b)
	if size == 0 {
		return 0, 0, p.fail("unexpected end of input")
	}
	p.r.Discard(size) //nolint:errcheck // peeked
	p.off += int64(size)
	return r, size, nil
}

// appendCodePoint appends r as UTF-8, or an escaped lone surrogate in the
// generalised (WTF-8) form: JSON text may escape one, I-JSON aside, and
// SPEC A4 then makes the path non-canonical because it is not valid UTF-8.
func appendCodePoint(buf []byte, r rune) []byte {
	if utf16.IsSurrogate(r) {
		return append(buf, 0xED, byte(0x80|(r>>6)&0x3F), byte(0x80|r&0x3F))
	}
	return utf8.AppendRune(buf, r)
}

// unicodeEscape reads the hex digits after \u, joining a surrogate pair;
// a lone surrogate is returned as is (see appendCodePoint).
func (p *parser) unicodeEscape() (rune, error) {
	r, err := p.hex4()
	if err != nil || !utf16.IsSurrogate(r) || r >= 0xDC00 {
		return r, err
	}
	b, err := p.peek(6)
	if err != nil {
		return 0, err
	}
	r, n := jsonesc.Pair(r, b)
	p.r.Discard(n) //nolint:errcheck // peeked
	p.off += int64(n)
	return r, nil
}

func (p *parser) hex4() (rune, error) {
	b, err := p.peek(4)
	if err != nil {
		return 0, err
	}
	r, ok := jsonesc.Hex4(b)
	if !ok {
		return 0, p.fail("invalid \\u escape")
	}
	p.r.Discard(4) //nolint:errcheck // peeked
	p.off += 4
	return r, nil
}

// internString is intern for a string that must not be kept (it lives in
// a key set's buffer): the schema's names as constants, others copied.
func internString(k string) string {
	switch k {
	case "path", "sizeBytes", "mtimeEpoch", "type", "inventory", "scope", "paths", "retention", "days",
		"maxEntries", "maxSizeMb", "now", "hardGuards", "derivedGuards", "excludes":
		for _, name := range schemaNames {
			if name == k {
				return name
			}
		}
	}
	return strings.Clone(k)
}

// schemaNames are the input schema's property names.
var schemaNames = [...]string{"path", "sizeBytes", "mtimeEpoch", "type", "inventory", "scope", "paths", "retention",
	"days", "maxEntries", "maxSizeMb", "now", "hardGuards", "derivedGuards", "excludes"}

// intern returns the schema's key names without allocating: they repeat
// once per inventory entry.
func intern(b []byte) string {
	switch string(b) {
	case "path":
		return "path"
	case "sizeBytes":
		return "sizeBytes"
	case "mtimeEpoch":
		return "mtimeEpoch"
	case "type":
		return "type"
	case "file":
		return "file"
	}
	return string(b)
}
