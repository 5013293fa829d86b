package faulttest

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/s3test"
)

// TestJournalThatVanishesOnReadIsNotDropped: a killed run left its
// journal; the next run lists it, and the server answers 404 to reading
// it (a journal object that disappears, or a server that lies about it).
// The next run must not delete a journal it could not read: either its
// interrupted names what the killed run deleted, or the journal objects
// stay for a later run.
func TestJournalThatVanishesOnReadIsNotDropped(t *testing.T) {
	f := newFixture(t)
	p := killedRun(t, f, s3test.KindDeleteBatch, prefix+".river/tmp/")
	deleted := engineDeleted(t, p)
	if len(deleted) == 0 {
		t.Fatal("the engine deleted nothing of the killed run's batch: the test tests nothing")
	}
	expireLease(t, f)
	journal := prefix + ".river/gc-journal/"
	l := newLiar(t, f.srv.Endpoint, func(l *liar, r *http.Request, body []byte) (int, http.Header, []byte, bool) {
		if r.Method == http.MethodGet && !isList(r) && strings.Contains(r.URL.Path, "/"+journal) {
			return http.StatusNotFound, xmlHeader(), []byte(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>`), true
		}
		return 0, nil, nil, false
	})
	r, stderr, code := f.runBounded(t, l.URL, f.gcArgs("--force")...)
	named := r.Interrupted != nil && slices.Equal(slices.Sorted(slices.Values(r.Interrupted.Removed)), deleted)
	kept := slices.ContainsFunc(f.keysAll(t), func(k string) bool { return strings.HasPrefix(k, ".river/gc-journal/") })
	if !named && !kept {
		t.Errorf("the killed run deleted %v; the next run (exit %d) names %+v and removed its journal\n%.2000s", deleted, code, r.Interrupted, stderr)
	}
}
