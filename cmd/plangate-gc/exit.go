package main

import (
	"errors"
	"fmt"
	"io"
)

// usageError is a bad command line: exit 2 (SPEC A12).
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// errEvalFailed reports failing evaluation cases: exit 1, nothing more to say.
var errEvalFailed = errors.New("evaluation failed")

// exitCode maps run's error to the process exit code, printing it.
func exitCode(err error, stderr io.Writer) int {
	var usage *usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errEvalFailed):
		return 1
	case errors.As(err, &usage):
		fmt.Fprintf(stderr, "plangate-gc: %v (see --help)\n", err)
		return 2
	default:
		fmt.Fprintf(stderr, "plangate-gc: %v\n", err)
		return 1
	}
}
