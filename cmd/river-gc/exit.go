package main

import (
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

// exitCode maps run's error to seed 000's exit codes.
func exitCode(err error, stderr io.Writer) int {
	var cfg *configError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errRuntime):
		return 1
	case errors.As(err, &cfg):
		fmt.Fprintf(stderr, "river gc: config error: %v\n", err)
		return 2
	default:
		fmt.Fprintf(stderr, "river gc: %v\n", err)
		return 1
	}
}
