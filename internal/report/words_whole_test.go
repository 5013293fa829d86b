//go:build linux

package report

import (
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/fserr"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/render"
	"github.com/plangate-gc/plangate-gc/skill"
)

// TestEveryWarningAndErrorMessageIsWhole (SPEC B6): every gc-warn- and
// gc-err-op- message the catalog holds, worded by WarningText and
// ErrorText for the kind or operation its key names, every field set, is
// whole ("%!" nowhere) in both languages and is not the bare kind.
func TestEveryWarningAndErrorMessageIsWhole(t *testing.T) {
	langs := []render.Lang{render.Japanese, render.English}
	if len(render.Keys("gc-warn-")) < 10 || len(render.Keys("gc-err-op-")) < 10 {
		t.Fatal("the gc-warn- and gc-err-op- families are not in the catalog")
	}
	for _, key := range render.Keys("gc-warn-") {
		k := gc.WarningKind(strings.TrimPrefix(key, "gc-warn-"))
		w := gc.Warning{Kind: k, Scope: skill.ScopeEvals, Path: "P/x", Target: "T/y", N: 7, Total: 8, Err: unix.EIO}
		for _, lang := range langs {
			if s := WarningText(w, lang); s == string(k) || strings.Contains(s, "%!") {
				t.Errorf("%s (%s): %q", key, lang, s)
			}
		}
	}
	causes := []error{unix.EIO, fserr.ErrChanged, &fserr.UnreadableJournalError{Lines: 3, SetAside: "J.unreadable-1"},
		&fserr.UnreadableJournalError{Lines: 3}, &fserr.NotJournaledError{Cause: fserr.ErrNotJournalable, NotAttempted: 2},
		&fserr.HeldError{Private: "P", Cause: fserr.ErrChanged, Why: fserr.ErrNameTaken}, &fserr.InterruptedError{NotAttempted: 4},
		&fserr.ChangedError{Fields: []fserr.Field{fserr.FieldSize}}, &fserr.OwnerError{UID: 1, GID: 2}, &fserr.CopySizeError{Want: 5, Got: 6},
		&fserr.KindError{Kind: fserr.KindOf(unix.S_IFIFO), Want: fserr.ErrNotRegular}}
	for _, key := range render.Keys("gc-err-op-") {
		op := fserr.Op(strings.TrimPrefix(key, "gc-err-op-"))
		for _, cause := range causes {
			for _, lang := range langs {
				if s := ErrorText(fserr.New(op, "P/x", cause), lang); strings.Contains(s, "%!") || strings.HasPrefix(s, string(op)+": ") {
					t.Errorf("%s, %v (%s): %q", key, cause, lang, s)
				}
			}
		}
	}
}
