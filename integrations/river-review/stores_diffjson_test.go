//go:build linux

package riverreview

import (
	"bytes"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// jv is a JSON value as the differential test writes it: byte for byte,
// so that a store can hold what no encoder writes (invalid UTF-8 inside a
// string, escapes of lone surrogates, repeated or case-twin keys, numbers
// beyond a double, odd white space).
type jv struct {
	kind    byte     // 'o' object, 'a' array, 's' string, 'r' raw token
	raw     []byte   // a string's bytes between the quotes, or a raw token
	members []member // an object's members, in order, repeats allowed
	items   []jv     // an array's items
}

// member is one key and value of an object; key is written as is between
// the quotes.
type member struct {
	key []byte
	val jv
}

// str is the JSON string of a valid Go string, escaped as JSON.stringify
// escapes it.
func str(s string) jv { return jv{kind: 's', raw: escape(s)} }

// rawStr is a JSON string whose bytes between the quotes are b, unchecked.
func rawStr(b string) jv { return jv{kind: 's', raw: []byte(b)} }

// tok is a raw token: a number, true, false, null.
func tok(s string) jv { return jv{kind: 'r', raw: []byte(s)} }

// obj builds an object from key, value pairs (keys escaped).
func obj(kv ...any) jv {
	o := jv{kind: 'o'}
	for i := 0; i+1 < len(kv); i += 2 {
		o.members = append(o.members, member{escape(kv[i].(string)), kv[i+1].(jv)})
	}
	return o
}

// arr builds an array.
func arr(items ...jv) jv { return jv{kind: 'a', items: items} }

// escape writes s as JSON.stringify would between the quotes.
func escape(s string) []byte {
	var b bytes.Buffer
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		case r == utf8.RuneError:
			b.WriteString("\uFFFD")
		default:
			b.WriteRune(r)
		}
	}
	return b.Bytes()
}

// get returns the value of the last member named key (JSON.parse's
// reading), or nil.
func (v *jv) get(key string) *jv {
	for i := len(v.members) - 1; i >= 0; i-- {
		if string(v.members[i].key) == key {
			return &v.members[i].val
		}
	}
	return nil
}

// layout is how a document is laid out: the indent of one level, the
// line break, and what separates a key from its value.
type layout struct {
	indent, newline, colon string
}

var (
	upstreamLayout = layout{"  ", "\n", ": "}
	compactLayout  = layout{"", "", ":"}
)

// write appends v to b in layout l at depth d.
func (v jv) write(b *bytes.Buffer, l layout, d int) {
	line := func(d int) {
		if l.newline != "" {
			b.WriteString(l.newline)
			for range d {
				b.WriteString(l.indent)
			}
		}
	}
	switch v.kind {
	case 's':
		b.WriteByte('"')
		b.Write(v.raw)
		b.WriteByte('"')
	case 'r':
		b.Write(v.raw)
	case 'a', 'o':
		open, end, n := byte('['), byte(']'), len(v.items)
		if v.kind == 'o' {
			open, end, n = '{', '}', len(v.members)
		}
		b.WriteByte(open)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			line(d + 1)
			if v.kind == 'a' {
				v.items[i].write(b, l, d+1)
				continue
			}
			b.WriteByte('"')
			b.Write(v.members[i].key)
			b.WriteByte('"')
			b.WriteString(l.colon)
			v.members[i].val.write(b, l, d+1)
		}
		if n > 0 {
			line(d)
		}
		b.WriteByte(end)
	}
}

// encode is v's text in layout l.
func (v jv) encode(l layout) []byte {
	var b bytes.Buffer
	v.write(&b, l, 0)
	return b.Bytes()
}

// nest is v inside depth arrays.
func nest(v jv, depth int) jv {
	for range depth {
		v = arr(v)
	}
	return v
}

// num is an integer token.
func num(n int64) jv { return tok(strconv.FormatInt(n, 10)) }
