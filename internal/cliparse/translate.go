package cliparse

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Sentinel causes of a flag error, for errors.Is.
var (
	ErrUnknownFlag  = errors.New("unknown flag")
	ErrMissingValue = errors.New("missing value")
	ErrBadValue     = errors.New("bad value")
	ErrList         = errors.New("one value per flag")
)

// Error is a command-line error in the project's own words: Flag names the
// flag (or argument) concerned, Err is one of the sentinel causes, Hint
// says what to type instead.
type Error struct {
	Flag string
	Err  error
	Hint string
	// HintKind names the hint's form (one of the Hint* constants, "" for
	// a hint of another form) and HintArgs its values, so that a command
	// can word the hint in its own language.
	HintKind string
	HintArgs []string
}

// The forms of a hint, for Error.HintKind.
const (
	HintDidYouMean = "did-you-mean" // HintArgs: the flag meant
	HintAttach     = "attach"       // HintArgs: the flag=value to type
	HintWrite      = "write"        // HintArgs: the flag=VALUE to type
	HintNotWhole   = "not-whole"    // HintArgs: the value, quoted
	HintNotOneOf   = "not-one-of"   // HintArgs: the value, quoted; the choices
)

func (e *Error) Error() string {
	var s string
	switch e.Err {
	case ErrUnknownFlag:
		s = "unknown flag " + e.Flag
	case ErrMissingValue:
		s = e.Flag + " needs a value"
	default: // the hint says what is wrong with the value
		if e.Hint != "" {
			return e.Flag + ": " + e.Hint
		}
		return e.Flag + ": " + e.Err.Error()
	}
	if e.Hint != "" {
		s += "; " + e.Hint
	}
	return s
}

// Unwrap returns the sentinel cause.
func (e *Error) Unwrap() error { return e.Err }

// Kong's parser messages, matched to reword them (kong v1.17).
var (
	unknownFlag = regexp.MustCompile(`^unknown flag (\S+?)(?:, did you mean "([^"]+)"\?)?$`)
	shortFlag   = regexp.MustCompile(`^(--[\w-]+): expected \w+ value but got "(-[^"]*)" \(short flag\)`)
	eolValue    = regexp.MustCompile(`^(--[\w-]+): expected \w+ value but got "EOL"`)
	missingArg  = regexp.MustCompile(`^(--[\w-]+): missing value, expecting "<arg>"`)
	badNumber   = regexp.MustCompile(`^(--[\w-]+): expected a valid .*? but got "(.*)"$`)
	enumValue   = regexp.MustCompile(`^(--[\w-]+|<[\w-]+>) must be one of (.*) but got "(.*)"$`)
)

// Translate rewords a kong parse error without parser internals: no
// `got "EOL"`, no "(short flag)". A negative number after a flag is read as
// a flag by the parser, so the hint says to write it as --flag=-1. Errors it
// does not recognise are returned unchanged.
func Translate(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if m := unknownFlag.FindStringSubmatch(msg); m != nil {
		e := &Error{Flag: m[1], Err: ErrUnknownFlag}
		if m[2] != "" {
			e.Hint, e.HintKind, e.HintArgs = "did you mean "+m[2]+"?", HintDidYouMean, []string{m[2]}
		}
		return e
	}
	if m := shortFlag.FindStringSubmatch(msg); m != nil {
		return &Error{Flag: m[1], Err: ErrMissingValue,
			Hint:     fmt.Sprintf("a value starting with '-' must be attached: %s=%s", m[1], m[2]),
			HintKind: HintAttach, HintArgs: []string{m[1] + "=" + m[2]}}
	}
	m := eolValue.FindStringSubmatch(msg)
	if m == nil {
		m = missingArg.FindStringSubmatch(msg) // a repeatable flag at the end
	}
	if m != nil {
		return &Error{Flag: m[1], Err: ErrMissingValue, Hint: "write " + m[1] + "=VALUE", HintKind: HintWrite,
			HintArgs: []string{m[1] + "=VALUE"}}
	}
	if m := badNumber.FindStringSubmatch(msg); m != nil {
		return &Error{Flag: m[1], Err: ErrBadValue, Hint: fmt.Sprintf("%q is not a whole number", m[2]),
			HintKind: HintNotWhole, HintArgs: []string{strconv.Quote(m[2])}}
	}
	if m := enumValue.FindStringSubmatch(msg); m != nil {
		choices := strings.ReplaceAll(strings.ReplaceAll(m[2], `"`, ""), ",", ", ")
		return &Error{Flag: m[1], Err: ErrBadValue, Hint: fmt.Sprintf("%q is not one of %s", m[3], choices),
			HintKind: HintNotOneOf, HintArgs: []string{strconv.Quote(m[3]), choices}}
	}
	return err
}

// ListHint checks one value of a repeatable flag such as river-gc's --scope
// or --exclude: a comma-separated list is refused with a hint to repeat the
// flag (`--scope memory --scope evals`). It returns nil for a plain value.
func ListHint(flag, value string) error {
	if !strings.Contains(value, ",") {
		return nil
	}
	parts := strings.Split(value, ",")
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(flag + " " + p)
	}
	return &Error{Flag: flag, Err: ErrList,
		Hint: fmt.Sprintf("%q holds a comma; repeat the flag for each value: %s", value, b.String())}
}
