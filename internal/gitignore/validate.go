package gitignore

import (
	"fmt"
	"strings"
)

// Code is a stable, machine-readable reason why a pattern is malformed. The
// values are part of the package's contract so callers can branch on them
// and tools can report them without parsing English text.
type Code string

// The reasons a pattern can be malformed (SPEC A5).
const (
	// CodeEmpty: the pattern is empty, or becomes empty once git's line
	// clean-up (one trailing CR, then unescaped trailing spaces) is done.
	// git would silently ignore such a line; we refuse it as a likely typo.
	CodeEmpty Code = "empty"
	// CodeComment: the pattern starts with '#', so in a .gitignore it would
	// be a comment and match nothing. Write `\#` for a literal '#'.
	CodeComment Code = "comment"
	// CodeNUL: the pattern contains a NUL byte, which no path can contain
	// and which git would treat as the end of the line.
	CodeNUL Code = "nul"
	// CodeTrailingBackslash: the pattern ends with an odd number of
	// backslashes, so the last one escapes nothing and git never matches.
	CodeTrailingBackslash Code = "trailing-backslash"
	// CodeUnterminatedClass: a '[' opens a bracket expression that is never
	// closed, which makes git abort the match and never match.
	CodeUnterminatedClass Code = "unterminated-class"
)

// PatternError says which pattern is malformed and why. It is returned by
// Validate and wrapped by Compile, so callers can use errors.As to get at it.
type PatternError struct {
	// Pattern is the pattern exactly as the caller supplied it.
	Pattern string
	// Code is the stable reason.
	Code Code
	// Offset is the byte offset in Pattern where the problem was found:
	// the NUL, the trailing backslash, or the '[' that is not closed; 0 for
	// comments and empty patterns.
	Offset int
}

// Error describes the problem in English and names the pattern with %q so
// that invisible characters (spaces, CR, NUL) are visible.
func (e *PatternError) Error() string {
	var why string
	switch e.Code {
	case CodeEmpty:
		why = "is empty or only spaces"
	case CodeComment:
		why = "starts with an unescaped '#' (a comment); write \\# for a literal '#'"
	case CodeNUL:
		why = fmt.Sprintf("contains a NUL byte at offset %d", e.Offset)
	case CodeTrailingBackslash:
		why = fmt.Sprintf("ends with a lone backslash at offset %d", e.Offset)
	case CodeUnterminatedClass:
		why = fmt.Sprintf("has an unterminated '[' at offset %d", e.Offset)
	default:
		why = "is malformed (" + string(e.Code) + ")"
	}
	return fmt.Sprintf("gitignore pattern %q %s", e.Pattern, why)
}

// Validate reports whether one pattern is well-formed; the error, if any, is
// a *PatternError. It rejects exactly the patterns SPEC A5 calls malformed:
// empty or only spaces, starting with an unescaped '#', containing NUL,
// ending with a lone '\', or with an unterminated '['. The checks apply to
// the line as git would use it, after dropping one trailing CR and the
// unescaped trailing spaces; that clean-up can neither create nor remove a
// lone trailing backslash, so "ends with a lone \" means the same before and
// after it. Patterns git accepts but that can never match (such as "!", "/"
// or a class like [[:nope:]]) are well-formed: the spec does not forbid them
// and the Matcher treats them exactly as git does.
func Validate(pattern string) error {
	if i := strings.IndexByte(pattern, 0); i >= 0 {
		return &PatternError{Pattern: pattern, Code: CodeNUL, Offset: i}
	}
	if strings.HasPrefix(pattern, "#") {
		return &PatternError{Pattern: pattern, Code: CodeComment}
	}
	line := cleanLine(pattern)
	if line == "" {
		return &PatternError{Pattern: pattern, Code: CodeEmpty}
	}
	if n := len(line) - len(strings.TrimRight(line, `\`)); n%2 == 1 {
		return &PatternError{Pattern: pattern, Code: CodeTrailingBackslash, Offset: len(line) - 1}
	}
	body, skip := line, 0
	if body[0] == '!' {
		body, skip = body[1:], 1
	}
	body = strings.TrimSuffix(body, "/")
	if i := unterminatedClass(body); i >= 0 {
		return &PatternError{Pattern: pattern, Code: CodeUnterminatedClass, Offset: skip + i}
	}
	return nil
}

// cleanLine does what git's add_patterns_from_buffer does to a .gitignore
// line before parsing it: drop one CR that precedes the newline (CRLF files),
// then the trailing spaces that are not escaped. Only ' ' is trimmed, never
// tabs, and "foo\r " keeps its CR because the CR is not last.
func cleanLine(s string) string {
	s = strings.TrimSuffix(s, "\r")
	return trimTrailingSpaces(s)
}

// trimTrailingSpaces ports git's trim_trailing_spaces: it cuts the run of
// spaces at the end unless the first of them is escaped ("foo\ " keeps one
// space, "foo\\ " loses it because the backslash is itself escaped).
func trimTrailingSpaces(s string) string {
	lastSpace := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if lastSpace < 0 {
				lastSpace = i
			}
		case '\\':
			i++
			if i == len(s) {
				return s
			}
			lastSpace = -1
		default:
			lastSpace = -1
		}
	}
	if lastSpace >= 0 {
		return s[:lastSpace]
	}
	return s
}

// unterminatedClass returns the offset of the first '[' in a wildmatch
// pattern whose bracket expression never closes, or -1. It walks the pattern
// the way wildmatch does: a backslash escapes the next byte, and a class is
// parsed by matchClass itself, so "closes" means exactly what it means to
// git (a ']' right after '[', "[!" or "[^" is a member, and [:name:] is one
// unit).
func unterminatedClass(pat string) int {
	for i := 0; i < len(pat); i++ {
		switch pat[i] {
		case '\\':
			i++
		case '[':
			end, _, ok := matchClass(pat, i, 0, true)
			if !ok {
				return i
			}
			i = end
		}
	}
	return -1
}
