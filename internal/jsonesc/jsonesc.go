// Package jsonesc writes one ASCII byte inside a JSON string the way every
// JSON writer of this project does: quote and backslash escaped, \n \r \t
// by name, other control characters as \u00XX, the rest as is. The gate's
// input encoder and render's output differ only in how they treat bytes
// that are not valid UTF-8, so that part stays with each of them. It reads
// escapes back for every JSON reader of this project (unescape.go): the
// gate's and a plan's.
package jsonesc

const hex = "0123456789abcdef"

// AppendASCII appends c (< 0x80) as it stands inside a JSON string.
func AppendASCII(b []byte, c byte) []byte {
	switch {
	case c == '"' || c == '\\':
		return append(b, '\\', c)
	case c == '\n':
		return append(b, `\n`...)
	case c == '\r':
		return append(b, `\r`...)
	case c == '\t':
		return append(b, `\t`...)
	case c < 0x20:
		return append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
	}
	return append(b, c)
}
