package render

import (
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// The review lines of SPEC A10 are read by River Review with
// ^(.+?):(\d+):\s*(.+)$ after trimming the line. A path is written as is
// when that reading gives it back; otherwise it is written as a JSON
// string literal whose text holds no ':' and no line break (quotedPath),
// so that the reader's file is the literal as a whole, which decodes to
// the true path.

// appendTextPath appends p as the text output shows a path.
func appendTextPath(b []byte, p string) []byte {
	if !needsQuoting(p) {
		return append(b, p...)
	}
	return appendQuotedPath(b, p)
}

// textPath is appendTextPath as a string.
func textPath(p string) string {
	if !needsQuoting(p) {
		return p
	}
	return string(appendQuotedPath(nil, p))
}

// needsQuoting reports whether p, followed by ":<line>:", could be read as
// another file, or would not survive a terminal or a line reader: it
// starts with '"' (the quoted form), contains ":<digits>:" or ends with
// ":<digits>", has leading or trailing white space (the reader trims), or
// holds a character quoted always (mustEscape) or bytes that are not UTF-8.
func needsQuoting(p string) bool {
	if p == "" { // no path (a counted warning's Path); the gate admits none
		return false
	}
	if p[0] == '"' || !utf8.ValidString(p) {
		return true
	}
	first, _ := utf8.DecodeRuneInString(p)
	last, _ := utf8.DecodeLastRuneInString(p)
	if trimmed(first) || trimmed(last) {
		return true
	}
	if strings.IndexFunc(p, mustEscape) >= 0 {
		return true
	}
	for i := strings.IndexByte(p, ':'); i >= 0; {
		j := i + 1
		for j < len(p) && p[j] >= '0' && p[j] <= '9' {
			j++
		}
		if j > i+1 && (j == len(p) || p[j] == ':') {
			return true
		}
		k := strings.IndexByte(p[i+1:], ':')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return false
}

// trimmed reports whether JavaScript's String.prototype.trim removes r
// (white space and line terminators, U+FEFF included).
func trimmed(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' }

// mustEscape reports the characters that are never shown raw: controls
// (C0, DEL, C1), the line and paragraph separators (JavaScript's '.'
// does not match them), and the bidirectional controls, which reorder
// what a terminal shows.
func mustEscape(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f, r == '\u2028', r == '\u2029', r == '\u061c', r == '\u200e', r == '\u200f',
		r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069':
		return true
	}
	return false
}

// appendQuotedPath appends p as a JSON string literal: '"', '\\' and ':'
// escaped, and every mustEscape, non-graphic or white-space character but
// ' ' (so nothing in it is invisible; one beyond the BMP as its UTF-16
// surrogate pair), a lone surrogate (which an
// escaped \ud800 in the input becomes, SPEC A4) as its own \u escape, any
// other byte that is not UTF-8 as \ufffd.
func appendQuotedPath(b []byte, p string) []byte {
	const hex = "0123456789abcdef"
	u := func(b []byte, r rune) []byte {
		return append(b, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
	}
	b = append(b, '"')
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRuneInString(p[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			if s, ok := surrogate(p[i:]); ok {
				b, i = u(b, s), i+3
				continue
			}
			b = append(b, `\ufffd`...)
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r == ':' || mustEscape(r) || r != ' ' && (unicode.IsSpace(r) || !unicode.IsGraphic(r)):
			// Nothing invisible inside the quotes either; a character
			// beyond the BMP is its UTF-16 pair, as JSON spells it.
			if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
				b = u(u(b, r1), r2)
			} else {
				b = u(b, r)
			}
		default:
			b = append(b, p[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

// surrogate decodes the generalised UTF-8 (WTF-8) of a lone surrogate at
// the start of s: ED A0..BF 80..BF.
func surrogate(s string) (rune, bool) {
	if len(s) < 3 || s[0] != 0xED || s[1] < 0xA0 || s[1] > 0xBF || s[2] < 0x80 || s[2] > 0xBF {
		return 0, false
	}
	return 0xD000 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F), true
}
