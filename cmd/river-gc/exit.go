//go:build linux

package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/fserr"
	"github.com/plangate-gc/plangate-gc/internal/report"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/render"
)

// configError is a bad invocation (seed 000: exit 2), found before any
// file is touched. It is worded at the edge, in the run's language: key
// is its catalog entry (args pre-formatted strings); a configError with
// no key carries a cause from another package (err), worded by
// causeWords.
type configError struct {
	key  string
	args []any
	err  error
	hint string // a name to suggest ("did you mean"), or ""
	flag string // the flag a cause (err) is about, or ""
}

func (e *configError) Error() string { return e.text(render.English) }
func (e *configError) Unwrap() error { return e.err }

// text words the error in lang.
func (e *configError) text(lang render.Lang) string {
	s := causeWords(e.err, lang)
	if e.flag != "" {
		s = e.flag + ": " + s
	}
	if e.key != "" {
		s = render.Message(lang, e.key, e.args...)
	}
	if e.hint != "" {
		s += render.Message(lang, "gc-cfg-did-you-mean", e.hint)
	}
	return s
}

// configErr is a config error worded by the catalog entry key.
func configErr(key string, args ...any) error { return &configError{key: key, args: args} }

// q quotes a value given on the command line, as %q would.
func q(s string) string { return strconv.Quote(s) }

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
func exitCode(err error, stderr io.Writer, lang render.Lang) int {
	var cfg *configError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errRuntime) && !isJoined(err):
		return 1
	case errors.As(err, &cfg) && !isJoined(err):
		fmt.Fprintf(stderr, "river gc: %s\n", render.Message(lang, "gc-cfg-error", report.DisplayText(cfg.text(lang))))
		return 2
	default:
		for _, e := range leaves(err) {
			if !errors.Is(e, errRuntime) {
				fmt.Fprintf(stderr, "river gc: %s\n", report.DisplayText(runtimeWords(e, lang)))
			}
		}
		return 1
	}
}

// runtimeWords words a runtime failure in lang: the lock held by another
// run from the catalog, the others as they come.
func runtimeWords(err error, lang render.Lang) string {
	var (
		cfg    *configError
		locked *gc.LockedError
	)
	switch {
	case errors.As(err, &locked) && locked.Known:
		start := "?"
		if h := locked.Holder; h.Start > 0 {
			start = time.Unix(h.Start, 0).UTC().Format(time.RFC3339)
		}
		return render.Message(lang, "gc-cfg-locked-by", strconv.Itoa(locked.Holder.PID), start, cmp.Or(locked.Holder.Host, "?"))
	case errors.Is(err, fserr.ErrLocked):
		return render.Message(lang, "gc-cfg-locked")
	case errors.As(err, &cfg):
		return cfg.text(lang)
	}
	return causeWords(err, lang)
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
		return configErr("gc-cfg-root-missing", q(re.Path))
	case re.Explicit:
		return configErr("gc-cfg-root-not-river", q(re.Path))
	}
	return configErr("gc-cfg-no-root", re.Path)
}

// indexError is a git index that exists but cannot be read: river gc
// cannot tell tracked files apart, so it judges and deletes nothing (exit
// 1, a runtime failure rather than a bad invocation).
type indexError struct{ err error }

func (e *indexError) Error() string {
	return fmt.Sprintf("cannot read the git index (%v); nothing judged or deleted, since tracked files could not be told apart", e.err)
}
func (e *indexError) Unwrap() error { return e.err }
