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
	"github.com/plangate-gc/plangate-gc/internal/rivergc/command"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/config"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/render"
)

// exitCode maps run's error to seed 000's exit codes: 0, 1 for a runtime
// failure, 2 for a config error. Messages are worded here, at the edge,
// in the run's language, and printed one line per joined error, each
// with what a name or pattern in it could send to a terminal quoted
// (report.Display).
func exitCode(err error, stderr io.Writer, lang render.Lang) int {
	var cfg *config.Error
	switch {
	case err == nil:
		return 0
	case errors.Is(err, command.ErrRuntime) && !isJoined(err):
		return 1
	case errors.As(err, &cfg) && !isJoined(err):
		fmt.Fprintf(stderr, "river gc: %s\n", render.Message(lang, "gc-cfg-error", report.DisplayText(cfg.Words(lang))))
		return 2
	default:
		for _, e := range leaves(err) {
			if !errors.Is(e, command.ErrRuntime) {
				fmt.Fprintf(stderr, "river gc: %s\n", report.DisplayText(runtimeWords(e, lang)))
			}
		}
		return 1
	}
}

// runtimeWords words a runtime failure in lang: the lock held by another
// run, a journal name the git index tracks (decision 346: refused before
// anything changed, like the lock and an unreadable index, exit 1) and a
// record not written from the catalog, the others as config words them.
func runtimeWords(err error, lang render.Lang) string {
	var locked *gc.LockedError
	var fe *fserr.Error
	switch {
	case errors.As(err, &fe) && errors.Is(fe.Err, fserr.ErrTrackedJournal):
		return report.TrackedJournalText(fe.Path, lang)
	case errors.As(err, &locked) && locked.Known:
		start := "?"
		if h := locked.Holder; h.Start > 0 {
			start = time.Unix(h.Start, 0).UTC().Format(time.RFC3339)
		}
		return render.Message(lang, "gc-cfg-locked-by", strconv.Itoa(locked.Holder.PID), start, cmp.Or(locked.Holder.Host, "?"))
	case errors.Is(err, fserr.ErrLocked):
		return render.Message(lang, "gc-cfg-locked")
	case errors.Is(err, command.ErrNoRecord):
		return render.Message(lang, "gc-cfg-no-record")
	}
	return config.Words(err, lang)
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
