package faulttest

import (
	"slices"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/s3test"
)

// TestLockRewrittenByAThirdPartyIsNotTakenOver (SPEC H4):
// while run A deletes, a third party overwrites the lock object with
// bytes that are no lease. Run B, started then, must not read that as a
// lease that ran out and take the lock over at once (two runs would then
// delete side by side, and B would remove A's live journal after its
// record): it refuses (exit 1) and deletes nothing; A ends normally.
func TestLockRewrittenByAThirdPartyIsNotTakenOver(t *testing.T) {
	f := newFixture(t)
	var b record
	var bStderr string
	bCode := -1
	p := s3test.Proxy(t, f.srv, s3test.Before(s3test.KindDeleteBatch, 0, func(s3test.Request) {
		put(t, f, ".river/gc-lock", "not a lease\n")
		b, bStderr, bCode = f.gc(t, f.srv.Endpoint, f.gcArgs("--force")...)
	}).OnKeyPrefix(prefix+".river/tmp/").Times(1))
	a, aStderr, aCode := f.gc(t, p.URL, f.gcArgs("--force")...)
	if bCode != 1 || len(b.Removed) > 0 {
		t.Errorf("B: exit %d, removed %v; want 1 and nothing (the lock is not B's to take)\n%s", bCode, b.removed(), bStderr)
	}
	if aCode != 0 || !slices.Equal(a.removed(), old(f.tree)) {
		t.Errorf("A: exit %d, removed %v\n%s", aCode, a.removed(), aStderr)
	}
}
