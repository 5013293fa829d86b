package faulttest

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/s3test"
)

// TestLateDeleteIsNeverUnrecorded (SPEC H4, B2 "always leave
// a record"): a DeleteObjects that river-gc gave up on (every attempt
// timed out) still reaches the engine afterwards, as a request queued in
// a proxy or a slow server does, and deletes. The key looked up right
// after the timeout is still there, but that proves nothing: the run
// must not call it "not done" and drop its journal; the next run names
// what the late request deleted.
func TestLateDeleteIsNeverUnrecorded(t *testing.T) {
	f := newFixture(t)
	late := s3test.Delay(s3test.KindDeleteBatch, 6*time.Second).OnKeyPrefix(prefix + ".river/tmp/").Times(1)
	p := s3test.Proxy(t, f.srv, late)
	cmd, stdout, stderr := f.command(p.URL, f.gcArgs("--force")...)
	cmd.Env = append(cmd.Env, "RIVER_GC_S3_TIMEOUT=2s", "AWS_MAX_ATTEMPTS=1")
	cmd.Run() //nolint:errcheck // judged by its record and the engine
	var r record
	json.Unmarshal(stdout.Bytes(), &r)         // judged below whatever it holds
	for i := 0; i < 400 && !lateDone(p); i++ { // bounded: until the late request was forwarded
		time.Sleep(25 * time.Millisecond)
	}
	if !lateDone(p) {
		t.Fatalf("the late batch never reached the engine")
	}
	deleted := engineDeleted(t, p)
	if len(deleted) == 0 {
		t.Fatalf("the late request deleted nothing: the case tests nothing\n%s", stderr)
	}
	expireStaleLock(t, f)
	next, _, _ := f.gc(t, f.srv.Endpoint, f.gcArgs("--dry-run")...)
	named := r.removed()
	if next.Interrupted != nil {
		named = union(named, next.Interrupted.Removed)
	}
	for _, k := range deleted {
		if !slices.Contains(named, k) {
			t.Errorf("the late request deleted %s; neither the run (errors %+v) nor the next one names it", k, r.Errors)
		}
	}
}

// lateDone reports whether the proxy finished a delayed request.
func lateDone(p *s3test.FaultProxy) bool {
	return slices.ContainsFunc(p.Requests(), func(r s3test.Request) bool { return r.Kind == s3test.KindDeleteBatch && r.Fault != "" })
}

// expireStaleLock ages a lock object left behind, if any.
func expireStaleLock(t *testing.T, f *fixture) {
	t.Helper()
	if get(t, f, ".river/gc-lock") != "" {
		expireLease(t, f)
	}
}
