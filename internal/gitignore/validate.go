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
	bad := func(c Code, off int) error { return &PatternError{Pattern: pattern, Code: c, Offset: off} }
	if i := strings.IndexByte(pattern, 0); i >= 0 {
		return bad(CodeNUL, i)
	}
	line := cleanLine(pattern)
	switch {
	case line == "":
		return bad(CodeEmpty, 0)
	case line[0] == '#':
		return bad(CodeComment, 0)
	}
	n := len(line) - len(strings.TrimRight(line, `\`))
	if n%2 == 1 {
		return bad(CodeTrailingBackslash, len(line)-1)
	}
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '[':
			_, end, res := parseClass(line, i)
			if res == classUnterminated {
				return bad(CodeUnterminatedClass, i)
			}
			i = end - 1
		}
	}
	return nil
}
