package jsonesc

import (
	"unicode/utf16"
	"unicode/utf8"
)

// Reading an escape back is shared the same way: the one-letter escapes,
// the four hex digits of \uXXXX and the joining of a surrogate pair. What
// a lone surrogate stands for is each reader's own (the gate keeps it as
// WTF-8, a plan reads \udcHH as the byte HH that was not UTF-8).

// Simple returns the byte the one-letter escape \c stands for: one of
// " \ / b f n r t; ok is false for any other c (u included).
func Simple(c byte) (b byte, ok bool) {
	switch c {
	case '"', '\\', '/':
		return c, true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	}
	return 0, false
}

// Hex4 decodes the four hex digits (either case) at the start of b.
func Hex4(b []byte) (rune, bool) {
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

// Pair joins the high surrogate hi with the escape \uXXXX at the start of
// b when that is its low surrogate: the code point and 6 (the bytes it
// took of b). Otherwise hi stays alone: hi and 0, and the next escape is
// read on its own, as JSON.parse and encoding/json read it.
func Pair(hi rune, b []byte) (rune, int) {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return hi, 0
	}
	lo, ok := Hex4(b[2:])
	if r := utf16.DecodeRune(hi, lo); ok && r != utf8.RuneError {
		return r, 6
	}
	return hi, 0
}
