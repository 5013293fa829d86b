//go:build linux

package main

import (
	"github.com/plangate-gc/plangate-gc/internal/report"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"

	"errors"
	"fmt"
	"io"
)

// configError is a bad invocation (seed 000: exit 2), found before any
// file is touched.
type configError struct{ err error }

func (e *configError) Error() string { return e.err.Error() }
func (e *configError) Unwrap() error { return e.err }

func configErrorf(format string, args ...any) error {
	return &configError{err: fmt.Errorf(format, args...)}
}

// errRuntime means errors[] is not empty: the result was already written,
// the exit code is 1.
var errRuntime = errors.New("errors occurred")

// errNoRecord is joined to the failure of writing a run's record (the
// JSON, or the summary without --json): gc then keeps the intent journal,
// so the next run reports what this one deleted.
var errNoRecord = errors.New("the record of this run was not written; the intent journal is kept, so the next run reports what was deleted")

// exitCode maps run's error to seed 000's exit codes. Messages are
// printed one line per joined error, each with what a name or pattern in
// it could send to a terminal quoted (report.Display).
func exitCode(err error, stderr io.Writer) int {
	var cfg *configError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errRuntime) && !isJoined(err):
		return 1
	case errors.As(err, &cfg) && !isJoined(err):
		fmt.Fprintf(stderr, "river gc: config error: %s\n", report.DisplayText(err.Error()))
		return 2
	default:
		for _, e := range leaves(err) {
			if !errors.Is(e, errRuntime) {
				fmt.Fprintf(stderr, "river gc: %s\n", report.DisplayText(e.Error()))
			}
		}
		return 1
	}
}

// isJoined reports whether err is several errors joined.
func isJoined(err error) bool {
	_, ok := err.(interface{ Unwrap() []error })
	return ok
}

// leaves lists the errors joined in err (err itself when it is one).
func leaves(err error) []error {
	j, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return []error{err}
	}
	var out []error
	for _, e := range j.Unwrap() {
		out = append(out, leaves(e)...)
	}
	return out
}

// rootError words a root that could not be opened or holds neither
// .river/ nor artifacts/ (SPEC B2: a config error, nothing touched).
func rootError(err error) error {
	var re *gc.RootError
	if !errors.As(err, &re) {
		return &configError{err: err}
	}
	switch {
	case !errors.Is(err, gc.ErrNoRoot):
		return configErrorf("--root %q: not an existing directory", re.Path)
	case re.Explicit:
		return configErrorf("--root %q holds neither .river/ nor artifacts/: not a River Review repository root", re.Path)
	}
	return configErrorf("no River Review repository root (a directory holding .river/ or artifacts/) in %s or above it; run from the repository or pass --root", re.Path)
}

// indexError is a git index that exists but cannot be read: river gc
// cannot tell tracked files apart, so it judges and deletes nothing (exit
// 1, a runtime failure rather than a bad invocation).
type indexError struct{ err error }

func (e *indexError) Error() string {
	return fmt.Sprintf("cannot read the git index (%v); nothing judged or deleted, since tracked files could not be told apart", e.err)
}
func (e *indexError) Unwrap() error { return e.err }
