package stores

import (
	"strconv"
	"unicode/utf8"
)

// This file holds what a JavaScript string is, for the stores' reader.
//
// Upstream reads a store with readFileSync(p, 'utf-8') (WHATWG UTF-8:
// each maximal invalid subpart becomes one U+FFFD; a leading BOM is kept,
// and JSON.parse then rejects it) and JSON.parse (a \uXXXX escape of a
// lone surrogate stays its own UTF-16 code unit). The reader keeps such a
// string as WTF-8: valid UTF-8, except that a lone surrogate is written as
// its three-byte form (ED A0 80 – ED BF BF). Two JavaScript strings are
// equal exactly when their WTF-8 forms are equal, so ids, types and keys
// are compared as bytes; jsLess orders them as JavaScript's < does (by
// UTF-16 code units).

// decodeUTF8 is the WHATWG UTF-8 decoder's step at b[i:]: the code point
// and the number of bytes it takes; an invalid maximal subpart is U+FFFD
// and its length (at least 1).
func decodeUTF8(b []byte, i int) (rune, int) {
	c := b[i]
	if c < 0x80 {
		return rune(c), 1
	}
	var need int
	var lo, hi byte = 0x80, 0xBF
	var cp rune
	switch {
	case c >= 0xC2 && c <= 0xDF:
		need, cp = 1, rune(c&0x1F)
	case c >= 0xE0 && c <= 0xEF:
		need, cp = 2, rune(c&0x0F)
		if c == 0xE0 {
			lo = 0xA0
		} else if c == 0xED {
			hi = 0x9F
		}
	case c >= 0xF0 && c <= 0xF4:
		need, cp = 3, rune(c&0x07)
		if c == 0xF0 {
			lo = 0x90
		} else if c == 0xF4 {
			hi = 0x8F
		}
	default:
		return utf8.RuneError, 1
	}
	n := 1
	for ; n <= need; n++ {
		if i+n >= len(b) || b[i+n] < lo || b[i+n] > hi {
			return utf8.RuneError, n
		}
		cp = cp<<6 | rune(b[i+n]&0x3F)
		lo, hi = 0x80, 0xBF
	}
	return cp, n
}

// plain reports whether a JSON string's raw content (between the quotes)
// is its own WTF-8 form: no escape and nothing but ASCII. Such a string
// is compared in place, without decoding.
func plain(raw []byte) bool {
	for _, c := range raw {
		if c == '\\' || c >= 0x80 {
			return false
		}
	}
	return true
}

// decodeString returns the WTF-8 form of the JavaScript string a JSON
// string's raw content (already validated by the reader) stands for.
func decodeString(raw []byte) string {
	if plain(raw) {
		return string(raw)
	}
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\':
			var r rune
			r, i = unescape(raw, i)
			if r >= 0xD800 && r <= 0xDBFF && i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
				if lo, j := unescape(raw, i); lo >= 0xDC00 && lo <= 0xDFFF {
					r, i = 0x10000+(r-0xD800)<<10+(lo-0xDC00), j
				}
			}
			out = appendWTF8(out, r)
		case c < 0x80:
			out = append(out, c)
			i++
		default:
			r, n := decodeUTF8(raw, i)
			out = utf8.AppendRune(out, r)
			i += n
		}
	}
	return string(out)
}

// unescape decodes the escape at raw[i] ('\\'): the code unit (or
// character) and the index after it.
func unescape(raw []byte, i int) (rune, int) {
	switch c := raw[i+1]; c {
	case 'u':
		v, _ := strconv.ParseUint(string(raw[i+2:i+6]), 16, 16)
		return rune(v), i + 6
	case 'b':
		return '\b', i + 2
	case 'f':
		return '\f', i + 2
	case 'n':
		return '\n', i + 2
	case 'r':
		return '\r', i + 2
	case 't':
		return '\t', i + 2
	default: // '"', '\\', '/'
		return rune(c), i + 2
	}
}

// appendWTF8 appends a code point or a lone surrogate (as its three-byte
// form, which utf8.AppendRune would replace).
func appendWTF8(b []byte, r rune) []byte {
	if r >= 0xD800 && r <= 0xDFFF {
		return append(b, 0xED, byte(0x80|(r>>6)&0x3F), byte(0x80|r&0x3F))
	}
	return utf8.AppendRune(b, r)
}

// codeUnits appends the UTF-16 code units of a WTF-8 string.
func codeUnits(u []uint16, s string) []uint16 {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c < 0x80:
			u = append(u, uint16(c))
			i++
		case c == 0xED && i+2 < len(s) && s[i+1] >= 0xA0: // a lone surrogate
			u = append(u, uint16(0xD000|rune(s[i+1]&0x3F)<<6|rune(s[i+2]&0x3F)))
			i += 3
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r >= 0x10000 {
				r -= 0x10000
				u = append(u, uint16(0xD800+r>>10), uint16(0xDC00+r&0x3FF))
			} else {
				u = append(u, uint16(r))
			}
			i += n
		}
	}
	return u
}

// jsLess compares two WTF-8 strings as JavaScript's < compares strings:
// by UTF-16 code units.
func jsLess(a, b string) bool {
	ua, ub := codeUnits(nil, a), codeUnits(nil, b)
	for i := 0; i < len(ua) && i < len(ub); i++ {
		if ua[i] != ub[i] {
			return ua[i] < ub[i]
		}
	}
	return len(ua) < len(ub)
}

// jsSpaceAt reports the length of the JavaScript WhiteSpace or
// LineTerminator (what String.prototype.trim removes) that b[i:] starts
// with, 0 if none. U+0085 (NEL) and U+180E are not among them.
func jsSpaceAt(b []byte, i int) int {
	switch c := b[i]; {
	case c == ' ' || c >= '\t' && c <= '\r':
		return 1
	case c < 0x80:
		return 0
	}
	r, n := decodeUTF8(b, i)
	if isJSSpace(r) {
		return n
	}
	return 0
}

// isJSSpace is JavaScript's WhiteSpace or LineTerminator beyond ASCII:
// NBSP, BOM, the Unicode space separators (Zs), LS and PS.
func isJSSpace(r rune) bool {
	switch {
	case r == 0xA0, r == 0xFEFF, r == 0x1680, r >= 0x2000 && r <= 0x200A,
		r == 0x2028, r == 0x2029, r == 0x202F, r == 0x205F, r == 0x3000:
		return true
	}
	return false
}

// jsTrim returns the bounds of b[start:end] without the leading and
// trailing white space String.prototype.trim removes from its decoded
// text. A character is decoded the same way whatever precedes it (a lead
// byte is never a continuation byte), so the end is trimmed backwards.
func jsTrim(b []byte, start, end int) (int, int) {
	for start < end {
		n := jsSpaceAt(b[:end], start)
		if n == 0 {
			break
		}
		start += n
	}
	for end > start {
		n := 0
		for k := 1; k <= 3 && end-k >= start; k++ {
			if m := jsSpaceAt(b[:end], end-k); m == k {
				n = k
				break
			}
		}
		if n == 0 {
			break
		}
		end -= n
	}
	return start, end
}
