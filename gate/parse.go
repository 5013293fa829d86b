package gate

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/plangate-gc/plangate-gc/skill"
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
	doc    int // 1-based number of the document being read, for ReadError
	off    int64
	path   []seg // JSON pointer segments of the value being parsed
	probs  []Problem
	onItem itemFunc
	// onEntry receives the paths elements the fast path converted; the
	// fast path runs for the elements of an array at fastDepth (0: never).
	onEntry   func(skill.Entry)
	fastDepth int
	paths     *arena // backs the fast path's Path strings
	items     int
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
	// discard > 0 while reading a value that is not built (shape.go);
	// keySets[d] then holds the keys of the open object at depth d.
	discard int
	keySets *[maxDepth + 1]keySet
	// buildAll builds every value, as the gate once did: the oracle the
	// discard mode is tested against.
	buildAll bool
	// dropped counts problems compacted away past maxProblems (problem).
	dropped int
}

func (p *parser) fail(msg string) error { return &syntaxError{offset: p.off, msg: msg} }

// ioFail wraps a failure of the underlying reader (not io.EOF) so that it
// can never be mistaken for a syntax error: it ends the run with exit 1.
func (p *parser) ioFail(err error) error {
	return &ReadError{Op: "read", Doc: p.doc, Offset: p.off, Err: err}
}

func (p *parser) read() (byte, error) {
	c, err := p.r.ReadByte()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return 0, p.fail("unexpected end of input")
		}
		return 0, p.ioFail(err)
	}
	p.off++
	return c, nil
}

// peek returns up to n buffered bytes without consuming them; fewer than n
// only at the end of input. A read failure is returned as a *ReadError.
func (p *parser) peek(n int) ([]byte, error) {
	b, err := p.r.Peek(n)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, p.ioFail(err)
	}
	return b, nil
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
			return 0, false, p.ioFail(err)
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

// problem records a reason at the current position. The list stays
// bounded: past a few times maxProblems it is compacted to the first
// maxProblems distinct reasons, and the rest are counted in dropped.
func (p *parser) problem(code Code, msg string) {
	p.probs = append(p.probs, Problem{Code: code, Pointer: pointer(p.path), Message: msg})
	if len(p.probs) >= compactAt {
		p.probs, p.dropped = compact(p.probs, p.dropped)
	}
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
		if p.discard == 0 && !p.builds(c) {
			return p.skipped(c, depth)
		}
		if c == '{' {
			return p.object(depth + 1)
		}
		return p.array(depth + 1)
	case p.discard == 0 && !p.builds(c):
		return p.skipped(c, depth)
	case c == '"':
		return p.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	default:
		return p.literal()
	}
}

// skipped reads the value starting with c in discard mode and returns a
// placeholder of the same JSON type: an empty object or array (which the
// schema can only find of the wrong type, see builds), or nil.
func (p *parser) skipped(c byte, depth int) (v any, err error) {
	known := shapeAt(p.path) != shapeNone // else nobody looks at v
	p.discard++
	switch c {
	case '{':
		if _, err = p.object(depth + 1); known {
			v = map[string]any{}
		}
	case '[':
		if _, err = p.array(depth + 1); known {
			v = []any{}
		}
	case '"':
		_, err = p.str()
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		_, err = p.number()
	default:
		_, err = p.literal()
	}
	p.discard--
	return v, err
}

// object parses an object. A built one holds its known keys (and, with
// buildAll, all); the keys of unknown members, and all keys in discard
// mode, only go to the key set of its depth, to find repeats.
func (p *parser) object(depth int) (any, error) {
	p.read() //nolint:errcheck // the '{' was peeked
	var obj map[string]any
	switch {
	case p.discard > 0:
	case p.reuse != nil: // a paths item: one map serves them all
		obj, p.reuse = p.reuse, nil
		clear(obj)
	default:
		obj = map[string]any{}
	}
	var keys *keySet
	if !p.buildAll {
		if p.keySets == nil { // never grown: the pointers below stay valid
			p.keySets = new([maxDepth + 1]keySet)
		}
		keys = &p.keySets[depth]
		defer keys.reset()
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
		key, err := p.key(keys)
		if err != nil {
			return nil, err
		}
		if err := p.expect(':'); err != nil {
			return nil, err
		}
		p.path = append(p.path, seg{key: key, index: -1})
		member := obj != nil && (keys == nil || shapeAt(p.path) != shapeNone)
		if member && keys != nil { // the map keeps the key: a string of its own
			key = internString(key)
			keys.drop()
			p.path[len(p.path)-1].key = key
		}
		var v any
		if p.discard == 0 && p.isPaths() {
			v, err = p.pathsArray(depth)
		} else {
			v, err = p.value(depth)
		}
		if err != nil {
			return nil, err
		}
		dup := false
		if member {
			_, dup = obj[key]
			obj[key] = v
		} else {
			dup = keys.add(key)
		}
		if dup {
			p.problem(CodeDuplicateKey, fmt.Sprintf("duplicate key %q", key))
		}
		p.path = p.path[:len(p.path)-1]
		sep, err := p.read()
		if err != nil {
			return nil, err
		}
		if sep, err = p.afterSpace(sep); err != nil {
			return nil, err
		}
		switch sep {
		case ',':
			continue
		case '}':
			return obj, nil
		}
		return nil, p.fail("expected ',' or '}' in object")
	}
}

// afterSpace skips whitespace starting from an already consumed byte. At
// the end of input it returns 0, which every caller rejects as a syntax
// error; a read failure is returned as a *ReadError.
func (p *parser) afterSpace(c byte) (byte, error) {
	for c == ' ' || c == '\t' || c == '\n' || c == '\r' {
		next, err := p.r.ReadByte()
		if errors.Is(err, io.EOF) {
			return 0, nil
		}
		if err != nil {
			return 0, p.ioFail(err)
		}
		p.off++
		c = next
	}
	return c, nil
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
	return p.onItem != nil && len(p.path) == 2 && p.path[0].is("inventory") && p.path[1].is("paths")
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
	if p.onEntry != nil {
		p.fastDepth = depth + 1
	}
	defer func() { p.reuse, p.fastDepth = nil, 0 }()
	_, err = p.elements(depth+1, func(i int, v any) {
		p.onItem(i, v, p.itemUnsafe)
		p.items++
		p.reuse = p.itemMaps
	})
	return []any{}, err
}

func (p *parser) array(depth int) (any, error) {
	if p.discard > 0 {
		return p.elements(depth, func(int, any) {})
	}
	arr := []any{}
	_, err := p.elements(depth, func(_ int, v any) { arr = append(arr, v) })
	return arr, err
}

// elements parses '[' values ']' and hands each value to add; it
// returns no value (nil), the callers have theirs.
func (p *parser) elements(depth int, add func(int, any)) (any, error) {
	p.read() //nolint:errcheck // the '[' was peeked
	c, _, err := p.skipSpace()
	if err != nil {
		return nil, err
	}
	if c == ']' {
		p.read() //nolint:errcheck
		return nil, nil
	}
	for i := 0; ; i++ {
		if depth != p.fastDepth || !p.fastEntry() {
			p.path = append(p.path, seg{index: i})
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
		}
		sep, err := p.read()
		if err != nil {
			return nil, err
		}
		if sep, err = p.afterSpace(sep); err != nil {
			return nil, err
		}
		switch sep {
		case ',':
			continue
		case ']':
			return nil, nil
		}
		return nil, p.fail("expected ',' or ']' in array")
	}
}
