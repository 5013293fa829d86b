package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/plangate-gc/plangate-gc/render"
)

// usageError is a bad command line: exit 2 (SPEC A12).
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// errEvalFailed reports failing evaluation cases: exit 1, nothing more to say.
var errEvalFailed = errors.New("evaluation failed")

// exitCode maps run's error to the process exit code, printing it.
func exitCode(err error, stderr io.Writer, lang render.Lang) int {
	var usage *usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errEvalFailed):
		return 1
	case errors.As(err, &usage):
		fmt.Fprintln(stderr, render.Message(lang, "pgc-usage-error", err.Error()))
		return 2
	default:
		fmt.Fprintf(stderr, "plangate-gc: %v\n", err)
		return 1
	}
}
