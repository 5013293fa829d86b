package gate

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth is the deepest container nesting a document may have (I-JSON
// profile of SPEC A2): the top-level object is depth 1.
const maxDepth = 64

// syntaxError ends the whole stream: after it nothing can be trusted about
// where the next document would begin.
type syntaxError struct {
	offset int64
	msg    string
}

// Error gives the offset from the document's first byte, so the message
// does not depend on the documents before it.
func (e *syntaxError) Error() string { return fmt.Sprintf("byte %d: %s", e.offset, e.msg) }

// itemFunc receives each element of /inventory/paths as soon as it is
// parsed, so a million entries never live as one interface{} tree.
type itemFunc func(index int, item any, unsafeNumbers bool)

// parser reads strict JSON (RFC 8259 plus the I-JSON rules of SPEC A2)
// from a buffered stream. Values are built as the jsonschema package wants
// them: map[string]any, []any, json.Number, string, bool, nil. Numbers keep
// their literal text.
type parser struct {
	r      *bufio.Reader
	off    int64
	path   []string // JSON pointer segments of the value being parsed
	probs  []Problem
	onItem itemFunc
	items  int
	// unsafe is set when a number literal needs jsonnum.Safe before it may
	// be handed to math/big; it is reset per paths item and per document.
	unsafe bool
	// itemUnsafe is unsafe while parsing the current paths item.
	itemUnsafe bool
	// scratch is reused by str and number to avoid a buffer per token.
	scratch []byte
	// reuse, when set, is the map the next object is decoded into: paths
	// items are consumed by onItem before the next one is parsed.
	reuse    map[string]any
	itemMaps map[string]any
}

func (p *parser) fail(msg string) error { return &syntaxError{offset: p.off, msg: msg} }

func (p *parser) read() (byte, error) {
	c, err := p.r.ReadByte()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return 0, p.fail("unexpected end of input")
		}
		return 0, err
	}
	p.off++
	return c, nil
}

func (p *parser) unread() {
	_ = p.r.UnreadByte()
	p.off--
}

// skipSpace consumes JSON whitespace and reports the next byte without
// consuming it; ok is false at a clean end of input.
func (p *parser) skipSpace() (c byte, ok bool, err error) {
	for {
		c, err := p.r.ReadByte()
		if errors.Is(err, io.EOF) {
			return 0, false, nil
		}
		if err != nil {
			return 0, false, err
		}
		p.off++
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		p.unread()
		return c, true, nil
	}
}

func (p *parser) problem(code Code, msg string) {
	p.probs = append(p.probs, Problem{Code: code, Pointer: pointer(p.path), Message: msg})
}

// value parses one JSON value at the given container depth.
func (p *parser) value(depth int) (any, error) {
	c, ok, err := p.skipSpace()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, p.fail("unexpected end of input")
	}
	switch {
	case c == '{' || c == '[':
		if depth+1 > maxDepth {
			p.problem(CodeDepth, fmt.Sprintf("value nested deeper than %d levels", maxDepth))
			return nil, p.skipContainer()
		}
		if c == '{' {
			return p.object(depth + 1)
		}
		return p.array(depth + 1)
	case c == '"':
		return p.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	default:
		return p.literal()
	}
}

func (p *parser) object(depth int) (any, error) {
	p.read() //nolint:errcheck // the '{' was peeked
	obj := map[string]any{}
	if p.reuse != nil { // a paths item: one map serves them all
		obj, p.reuse = p.reuse, nil
		clear(obj)
	}
	c, _, err := p.skipSpace()
	if err != nil {
		return nil, err
	}
	if c == '}' {
		p.read() //nolint:errcheck
		return obj, nil
	}
	for {
		c, ok, err := p.skipSpace()
		if err != nil {
			return nil, err
		}
		if !ok || c != '"' {
			return nil, p.fail("expected a string object key")
		}
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		if err := p.expect(':'); err != nil {
			return nil, err
		}
		p.path = append(p.path, key.(string))
		var v any
		if p.isPaths() {
			v, err = p.pathsArray(depth)
		} else {
			v, err = p.value(depth)
		}
		if err != nil {
			return nil, err
		}
		if _, dup := obj[key.(string)]; dup {
			p.problem(CodeDuplicateKey, fmt.Sprintf("duplicate key %q", key))
		}
		p.path = p.path[:len(p.path)-1]
		obj[key.(string)] = v
		sep, err := p.read()
		if err != nil {
			return nil, err
		}
		sep = p.afterSpace(sep)
		switch sep {
		case ',':
			continue
		case '}':
			return obj, nil
		}
		return nil, p.fail("expected ',' or '}' in object")
	}
}

// afterSpace skips whitespace starting from an already consumed byte.
func (p *parser) afterSpace(c byte) byte {
	for c == ' ' || c == '\t' || c == '\n' || c == '\r' {
		next, err := p.r.ReadByte()
		if err != nil {
			return 0
		}
		p.off++
		c = next
	}
	return c
}

func (p *parser) expect(want byte) error {
	c, ok, err := p.skipSpace()
	if err != nil {
		return err
	}
	if !ok || c != want {
		return p.fail(fmt.Sprintf("expected %q", want))
	}
	p.read() //nolint:errcheck
	return nil
}

// isPaths reports whether the value about to be parsed sits at
// /inventory/paths of the top-level object.
func (p *parser) isPaths() bool {
	return p.onItem != nil && len(p.path) == 2 && p.path[0] == "inventory" && p.path[1] == "paths"
}

// pathsArray streams /inventory/paths: each element goes to onItem and the
// returned placeholder is an empty array (see validate for minItems).
func (p *parser) pathsArray(depth int) (any, error) {
	c, ok, err := p.skipSpace()
	if err != nil {
		return nil, err
	}
	if !ok || c != '[' || depth+1 > maxDepth {
		return p.value(depth)
	}
	p.itemMaps = map[string]any{}
	p.reuse = p.itemMaps
	defer func() { p.reuse = nil }()
	return p.elements(depth+1, func(i int, v any) {
		p.onItem(i, v, p.itemUnsafe)
		p.items++
		p.reuse = p.itemMaps
	})
}

func (p *parser) array(depth int) (any, error) {
	arr := []any{}
	_, err := p.elements(depth, func(_ int, v any) { arr = append(arr, v) })
	return arr, err
}

// elements parses '[' values ']' and hands each value to add.
func (p *parser) elements(depth int, add func(int, any)) (any, error) {
	p.read() //nolint:errcheck // the '[' was peeked
	c, _, err := p.skipSpace()
	if err != nil {
		return nil, err
	}
	if c == ']' {
		p.read() //nolint:errcheck
		return []any{}, nil
	}
	for i := 0; ; i++ {
		p.path = append(p.path, strconv.Itoa(i))
		saved := p.unsafe
		p.unsafe = false
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		p.itemUnsafe = p.unsafe
		p.unsafe = saved || p.unsafe
		p.path = p.path[:len(p.path)-1]
		add(i, v)
		sep, err := p.read()
		if err != nil {
			return nil, err
		}
		switch p.afterSpace(sep) {
		case ',':
			continue
		case ']':
			return []any{}, nil
		}
		return nil, p.fail("expected ',' or ']' in array")
	}
}

func (p *parser) literal() (any, error) {
	for _, lit := range []struct {
		text string
		v    any
	}{{"true", true}, {"false", false}, {"null", nil}} {
		if b, _ := p.r.Peek(len(lit.text)); string(b) == lit.text {
			p.r.Discard(len(lit.text)) //nolint:errcheck
			p.off += int64(len(lit.text))
			return lit.v, nil
		}
	}
	return nil, p.fail("invalid character where a value was expected")
}

func (p *parser) number() (any, error) {
	buf := p.scratch[:0]
	defer func() { p.scratch = buf }()
	for {
		c, err := p.r.ReadByte()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			p.off++
			buf = append(buf, c)
			continue
		}
		_ = p.r.UnreadByte()
		break
	}
	n, ok := parseNumber(string(buf))
	if !ok {
		return nil, p.fail(fmt.Sprintf("invalid number %q", buf))
	}
	if n.Safe() != n.Literal {
		p.unsafe = true
	}
	return json.Number(n.Literal), nil
}

// str parses a string (the opening quote is peeked), rejecting control
// characters, invalid UTF-8 and escaped lone surrogates.
func (p *parser) str() (any, error) {
	p.read() //nolint:errcheck
	buf := p.scratch[:0]
	defer func() { p.scratch = buf }()
	bad := false
	for {
		c, err := p.read()
		if err != nil {
			return nil, err
		}
		switch {
		case c == '"':
			if bad {
				p.problem(CodeUTF8, "string is not valid UTF-8")
			}
			return intern(buf), nil
		case c < 0x20:
			return nil, p.fail("control character in string")
		case c == '\\':
			e, err := p.read()
			if err != nil {
				return nil, err
			}
			switch e {
			case '"', '\\', '/':
				buf = append(buf, e)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r, err := p.unicodeEscape()
				if err != nil {
					return nil, err
				}
				buf = appendCodePoint(buf, r)
			default:
				return nil, p.fail("invalid escape in string")
			}
		case c >= utf8.RuneSelf:
			// Check raw multi-byte sequences here: buf also holds escaped
			// lone surrogates, which are allowed and must not be flagged.
			p.unread()
			r, size, err := p.rawRune()
			if err != nil {
				return nil, err
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
	b, _ := p.r.Peek(utf8.UTFMax)
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
	b, _ := p.r.Peek(6)
	if len(b) < 6 || string(b[:2]) != `\u` {
		return r, nil
	}
	lo, ok := hexValue(b[2:])
	if pair := utf16.DecodeRune(r, lo); !ok || pair == utf8.RuneError {
		return r, nil // the next escape is read on its own
	}
	p.r.Discard(6) //nolint:errcheck // peeked
	p.off += 6
	return utf16.DecodeRune(r, lo), nil
}

// hexValue decodes the four hex digits at the start of b.
func hexValue(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

func (p *parser) hex4() (rune, error) {
	b, _ := p.r.Peek(4)
	r, ok := hexValue(b)
	if !ok {
		return 0, p.fail("invalid \\u escape")
	}
	p.r.Discard(4) //nolint:errcheck // peeked
	p.off += 4
	return r, nil
}

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
