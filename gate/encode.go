package gate

import (
	"github.com/plangate-gc/plangate-gc/internal/jsonesc"

	"io"
	"strconv"
	"unicode/utf8"

	"github.com/plangate-gc/plangate-gc/skill"
)

// AppendInput appends in as one skill input document (SPEC A2) on one
// line, the form river-gc --emit-inventory pipes into plangate-gc. It is the
// inverse of Reader.Next: reading the line back yields in again (the test
// holds them to it), with two documented exceptions. hardGuards and excludes
// are always written, so a nil list reads back empty; and a path that is
// not valid UTF-8 (a file name on disk may be anything) has each invalid
// byte written as a lone-surrogate escape \udcXX, which reads back as a
// path that is still not valid UTF-8, hence still non-canonical (SPEC A4):
// the verdict is the same, never a different, judgeable path.
func AppendInput(b []byte, in skill.Input) []byte {
	b = append(b, `{"inventory":{"scope":`...)
	b = appendString(b, string(in.Scope))
	b = append(b, `,"paths":[`...)
	for i, e := range in.Paths {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"path":`...)
		b = appendString(b, e.Path)
		b = append(b, `,"sizeBytes":`...)
		b = strconv.AppendUint(b, e.SizeBytes, 10)
		b = append(b, `,"mtimeEpoch":`...)
		if e.MtimeKnown {
			b = strconv.AppendInt(b, e.Mtime, 10)
		} else {
			b = append(b, "null"...)
		}
		if e.Dir {
			b = append(b, `,"type":"dir"`...)
		}
		b = append(b, '}')
	}
	b = append(b, `]},"retention":{"days":`+in.Retention.Days.Literal+`,"maxEntries":`+in.Retention.MaxEntries.Literal+
		`,"maxSizeMb":`+in.Retention.MaxSizeMb.Literal+`},"now":`...)
	b = strconv.AppendInt(b, in.Now, 10)
	for _, list := range []struct {
		key  string
		vals []string
	}{{"hardGuards", in.HardGuards}, {"excludes", in.Excludes}} {
		b = append(b, `,"`+list.key+`":[`...)
		for i, v := range list.vals {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, v)
		}
		b = append(b, ']')
	}
	if len(in.DerivedGuards) > 0 { // optional (decision 62): absent when empty
		b = append(b, `,"derivedGuards":[`...)
		for i, v := range in.DerivedGuards {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, v)
		}
		b = append(b, ']')
	}
	return append(b, "}\n"...)
}

// WriteInput writes AppendInput's line to w.
func WriteInput(w io.Writer, in skill.Input) error {
	_, err := w.Write(AppendInput(nil, in))
	return err
}

// appendString appends s as a JSON string: quotes, backslashes and control
// characters escaped, valid UTF-8 as is. Bytes that are not valid UTF-8 are
// escaped as lone surrogates: an encoded surrogate (ED A0–BF xx, which the
// parser makes of an escaped lone surrogate) as itself, any other byte x as
// \udcXX, so the gate reads back a string that is again not valid UTF-8
// (never two escapes that would join into a valid pair).
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case r != utf8.RuneError || size > 1:
				b = append(b, s[i:i+size]...)
				i += size
			case c == 0xED && i+2 < len(s) && s[i+1]&0xE0 == 0xA0 && s[i+2]&0xC0 == 0x80 &&
				(s[i+1] >= 0xB0 || !invalidAt(s, i+3)):
				// A high surrogate followed by a byte escaped as \udcXX would
				// read back as one valid pair; its bytes are escaped singly.
				u := 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
				b = append(b, '\\', 'u', hex[u>>12], hex[u>>8&0xF], hex[u>>4&0xF], hex[u&0xF])
				i += 3
			default:
				b = append(b, '\\', 'u', 'd', 'c', hex[c>>4], hex[c&0xF])
				i++
			}
			continue
		}
		b = jsonesc.AppendASCII(b, c)
		i++
	}
	return append(b, '"')
}

// invalidAt reports whether s[i:] starts with a byte that is not valid
// UTF-8, i.e. one appendString escapes as a lone surrogate.
func invalidAt(s string, i int) bool {
	if i >= len(s) || s[i] < utf8.RuneSelf {
		return false
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	return r == utf8.RuneError && size == 1
}
