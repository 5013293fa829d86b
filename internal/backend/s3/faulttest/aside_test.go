package faulttest

import (
	"slices"
	"strings"
	"testing"
)

// TestUnreadableJournalIsSetAside (SPEC B6 "a way out", H4):
// an object under the journal directory that is not (wholly) a journal —
// a third party's, or garbled — used to stop every later --force run for
// good (exit 1, nothing deleted, no way out named). Now the run reads it
// as far as it goes (its one intent line is reported in interrupted),
// names it in errors[] (exit 1), deletes as usual, and once its record is
// written moves it to .river/gc-journal-unreadable/ with its bytes; the
// next run is a normal run.
func TestUnreadableJournalIsSetAside(t *testing.T) {
	f := newFixture(t)
	const name = "evil.1.2-000001"
	body := "not a journal\ndelete \"\\\"0123\\\"\" \".river/tmp/gone-before.tmp\"\n\x00garbage\n"
	put(t, f, ".river/gc-journal/"+name, body)
	r, stderr, code := f.gc(t, f.srv.Endpoint, f.gcArgs("--force")...)
	if code != 1 {
		t.Errorf("exit %d, want 1 (errors[] names the journal)\n%s", code, stderr)
	}
	if len(r.Errors) != 1 || r.Errors[0].Path != ".river/gc-journal/"+name || !strings.Contains(r.Errors[0].Message, "gc-journal-unreadable/"+name) {
		t.Errorf("errors[] = %+v, want the journal named with where it is set aside", r.Errors)
	}
	if got := r.removed(); !slices.Equal(got, old(f.tree)) {
		t.Errorf("removed[] = %v, want %v (the run deletes as usual)", got, old(f.tree))
	}
	if r.Interrupted == nil || !slices.Equal(r.Interrupted.Removed, []string{".river/tmp/gone-before.tmp"}) {
		t.Errorf("interrupted = %+v, want the one intent line it could read", r.Interrupted)
	}
	if got := get(t, f, ".river/gc-journal-unreadable/"+name); got != body {
		t.Errorf("set aside: %q, want the journal's bytes %q", got, body)
	}
	if slices.ContainsFunc(f.keysAll(t), func(k string) bool { return strings.HasPrefix(k, ".river/gc-journal/") }) {
		t.Errorf("a journal object stays: %v", f.keysAll(t))
	}
	next, stderr, code := f.gc(t, f.srv.Endpoint, f.gcArgs("--force")...)
	if code != 0 || len(next.Errors) > 0 || next.Interrupted != nil {
		t.Errorf("the next run: exit %d, errors %+v, interrupted %+v\n%s", code, next.Errors, next.Interrupted, stderr)
	}
}
