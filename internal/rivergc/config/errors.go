//go:build linux

package config

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/render"
)

// Error is a bad invocation (seed 000: exit 2), found before any file is
// touched. It is worded at the edge, in the run's language (Words): Key
// is its catalog entry (Args pre-formatted strings); an Error with no key
// carries a cause from another package (Err), worded by Words.
type Error struct {
	Key  string
	Args []any
	Err  error
	Hint string // a name to suggest ("did you mean"), or ""
	Flag string // the flag a cause (Err) is about, or ""
}

func (e *Error) Error() string { return e.Words(render.English) }
func (e *Error) Unwrap() error { return e.Err }

// Words words the error in lang.
func (e *Error) Words(lang render.Lang) string {
	s := Words(e.Err, lang)
	if e.Flag != "" {
		s = e.Flag + ": " + s
	}
	if e.Key != "" {
		s = render.Message(lang, e.Key, e.Args...)
	}
	if e.Hint != "" {
		s += render.Message(lang, "gc-cfg-did-you-mean", e.Hint)
	}
	return s
}

// Invalid is a config error worded by the catalog entry key.
func Invalid(key string, args ...any) error { return &Error{Key: key, Args: args} }

// q quotes a value given on the command line, as %q would.
func q(s string) string { return strconv.Quote(s) }

// rootError words a root that could not be opened or holds neither
// .river/ nor artifacts/ (SPEC B2: a config error, nothing touched).
func rootError(err error) error {
	var re *gc.RootError
	if !errors.As(err, &re) {
		return &Error{Err: err}
	}
	switch {
	case !errors.Is(err, gc.ErrNoRoot):
		return Invalid("gc-cfg-root-missing", q(re.Path))
	case re.Explicit:
		return Invalid("gc-cfg-root-not-river", q(re.Path))
	}
	return Invalid("gc-cfg-no-root", re.Path)
}

// IndexError is a git index that exists but cannot be read: river gc
// cannot tell tracked files apart, so it judges and deletes nothing (exit
// 1, a runtime failure rather than a bad invocation).
type IndexError struct{ Err error }

func (e *IndexError) Error() string {
	return fmt.Sprintf("cannot read the git index (%v); nothing judged or deleted, since tracked files could not be told apart", e.Err)
}
func (e *IndexError) Unwrap() error { return e.Err }
