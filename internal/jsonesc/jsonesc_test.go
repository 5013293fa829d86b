package jsonesc

import (
	"encoding/json"
	"testing"
)

// TestAppendASCIIIsValidJSON: every ASCII byte, alone in a string, reads
// back as itself.
func TestAppendASCIIIsValidJSON(t *testing.T) {
	for c := range byte(0x80) {
		b := append(AppendASCII([]byte{'"'}, c), '"')
		var s string
		if err := json.Unmarshal(b, &s); err != nil || s != string(rune(c)) {
			t.Errorf("%#x: %s reads back as %q, %v", c, b, s, err)
		}
	}
}

// TestUnescapeReadsAsEncodingJSON: every one-letter escape, and \uXXXX
// escapes alone and in pairs (valid pairs, lone and reversed surrogates,
// a high surrogate before a non-surrogate escape), decode to what
// encoding/json reads, a lone surrogate standing for U+FFFD there.
func TestUnescapeReadsAsEncodingJSON(t *testing.T) {
	for c := range byte(0x80) {
		var want string
		err := json.Unmarshal([]byte(`"\`+string(rune(c))+`"`), &want)
		got, ok := Simple(c)
		if ok != (err == nil && c != 'u') || ok && string(rune(got)) != want {
			t.Errorf(`\%c: Simple = %q, %v; encoding/json %q, %v`, c, got, ok, want, err)
		}
	}
	for _, lit := range []string{`\u0041`, `\u00e9`, `\uFFFF`, `\ud83d\ude00`, `\uD83D\uDE00`, `\ud800`, `\udc00`,
		`\ud800\u0041`, `\ud800\ud800`, `\udc00\ud800`, `\ud800\udbff\udc00`, `\u12`, `\u12g4`} {
		var want string
		err := json.Unmarshal([]byte(`"`+lit+`"`), &want)
		got, bad := decodeAll([]byte(lit))
		if (err != nil) != bad || !bad && got != want {
			t.Errorf("%s: %q (bad %v); encoding/json %q, %v", lit, got, bad, want, err)
		}
	}
}

// decodeAll decodes a run of \uXXXX escapes as a reader of this project
// does, a lone surrogate as U+FFFD.
func decodeAll(b []byte) (string, bool) {
	var out []rune
	for i := 0; i < len(b); i += 6 {
		if b[i] != '\\' || i+1 >= len(b) || b[i+1] != 'u' {
			return "", true
		}
		r, ok := Hex4(b[i+2:])
		if !ok {
			return "", true
		}
		if r >= 0xd800 && r < 0xdc00 {
			var n int
			r, n = Pair(r, b[i+6:])
			i += n
		}
		if r >= 0xd800 && r <= 0xdfff {
			r = 0xfffd
		}
		out = append(out, r)
	}
	return string(out), false
}
