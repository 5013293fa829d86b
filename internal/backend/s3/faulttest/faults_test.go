package faulttest

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/s3test"
)

// checkInvariants holds after any run, failed or not: the engine deleted
// no key twice, only old keys, each named by the record (removed[]) or,
// for a run that did not finish, by the next run's interrupted; every
// key not deleted is still there.
func checkInvariants(t *testing.T, f *fixture, p *s3test.FaultProxy, r record) {
	t.Helper()
	deleted := engineDeleted(t, p)
	named := r.removed()
	if r.Interrupted == nil && !slices.Equal(deleted, named) {
		next, _, _ := f.gc(t, f.srv.Endpoint, f.gcArgs("--dry-run")...)
		if next.Interrupted != nil {
			named = union(named, next.Interrupted.Removed)
		}
	}
	for _, k := range deleted {
		if !slices.Contains(named, k) {
			t.Errorf("the engine deleted %s, and no record names it (removed[] %v)", k, r.removed())
		}
		if !slices.Contains(old(f.tree), k) {
			t.Errorf("deleted %s, which the policy keeps", k)
		}
	}
	left := f.keys(t)
	for k := range f.tree {
		if !slices.Contains(deleted, k) && !slices.Contains(left, k) {
			t.Errorf("%s is gone, but the engine never answered a delete of it", k)
		}
	}
}

// TestTransientFaultsChangeNothing: behind delays, 5xx, throttling and
// dropped connections (the SDK retries), a --force run removes exactly
// the old objects, each once, and says so.
func TestTransientFaultsChangeNothing(t *testing.T) {
	tmp := prefix + ".river/tmp/"
	for _, tc := range []struct {
		name   string
		faults []s3test.Fault
		// mayRefuse: the run may instead stop before deleting anything
		// (exit 1, errors[] naming river gc's own object): a retried
		// create of its own lock or journal finds the first attempt's.
		mayRefuse bool
		// mayBeUnknown: the run may instead end with exit 1 and errors[]
		// for keys whose delete outcome it could not learn, provided the
		// next run names what is gone (checkInvariants checks that).
		mayBeUnknown bool
	}{
		{"delays", []s3test.Fault{s3test.Delay("", 20*time.Millisecond)}, false, false},
		{"500 on the first list page", []s3test.Fault{s3test.Answer(s3test.KindList, 1, http.StatusInternalServerError, "InternalError")}, false, false},
		{"503 on every first and second get", []s3test.Fault{s3test.Answer(s3test.KindGet, 1, http.StatusServiceUnavailable, "ServiceUnavailable"),
			s3test.Answer(s3test.KindGet, 2, http.StatusServiceUnavailable, "ServiceUnavailable")}, false, false},
		{"SlowDown on the first two batch deletes", []s3test.Fault{s3test.SlowDown(s3test.KindDeleteBatch, 1), s3test.SlowDown(s3test.KindDeleteBatch, 2)}, false, false},
		{"SlowDown on the first put", []s3test.Fault{s3test.SlowDown(s3test.KindPut, 1)}, false, false},
		{"500 on the batch of the old files", []s3test.Fault{s3test.Answer(s3test.KindDeleteBatch, 0, http.StatusInternalServerError, "InternalError").OnKeyPrefix(tmp).Times(1)}, false, false},
		{"batch of the old files dropped before the engine", []s3test.Fault{s3test.DropRequest(s3test.KindDeleteBatch, 0).OnKeyPrefix(tmp).Times(1)}, false, false},
		{"answer to the batch of the old files cut", []s3test.Fault{s3test.DropResponse(s3test.KindDeleteBatch, 0).OnKeyPrefix(tmp).Times(1)}, false, true},
		{"answer to a metadata read cut", []s3test.Fault{s3test.DropResponse(s3test.KindGet, 1)}, false, false},
		{"answer to the journal write cut", []s3test.Fault{s3test.DropResponse(s3test.KindPut, 0).OnKeyPrefix(prefix + ".river/gc-journal/").Times(1)}, true, false},
		{"answer to the lock write cut", []s3test.Fault{s3test.DropResponse(s3test.KindPut, 0).OnKey(prefix + ".river/gc-lock").Times(1)}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			p := s3test.Proxy(t, f.srv, tc.faults...)
			r, stderr, code := f.gc(t, p.URL, f.gcArgs("--force")...)
			checkInvariants(t, f, p, r)
			if tc.mayRefuse && code == 1 && len(engineDeleted(t, p)) == 0 && len(r.Removed) == 0 {
				if !strings.Contains(stderr, ".river/gc-") {
					t.Errorf("refused without naming river gc's own object:\n%s", stderr)
				}
				return
			}
			if tc.mayBeUnknown && code == 1 && len(r.Errors) > 0 {
				return // the record's completeness is checkInvariants's
			}
			if code != 0 || len(r.Errors) > 0 {
				t.Fatalf("exit %d, errors %+v\n%s", code, r.Errors, stderr)
			}
			if got := r.removed(); !slices.Equal(got, old(f.tree)) {
				t.Errorf("removed[] = %v\nwant %v", got, old(f.tree))
			}
			if left := f.keys(t); !slices.Equal(left, without(keysOf(f.tree), old(f.tree)...)) {
				t.Errorf("left in the bucket: %v", left)
			}
			if faulted := faultedRequests(p); faulted == 0 {
				t.Errorf("no request met the fault: the case tests nothing\n%v", p.Requests())
			}
		})
	}
}

// TestIgnoredConditionsRefuseForce: behind a proxy that strips every
// condition (an engine that accepts them and ignores them), --force is a
// config error naming what the server did, and no object of the tree is
// deleted.
func TestIgnoredConditionsRefuseForce(t *testing.T) {
	f := newFixture(t)
	p := s3test.Proxy(t, f.srv, s3test.StripConditions())
	r, stderr, code := f.gc(t, p.URL, f.gcArgs("--force")...)
	if code != 2 {
		t.Errorf("exit %d, want 2 (config error)\n%s", code, stderr)
	}
	if !strings.Contains(strings.ToLower(stderr), "condition") && !strings.Contains(stderr, "If-") && !strings.Contains(stderr, "ETag") {
		t.Errorf("stderr does not name the server's behaviour:\n%s", stderr)
	}
	if got := engineDeleted(t, p); len(got) > 0 {
		t.Errorf("deleted %v behind a server that ignores conditions", got)
	}
	if left := f.keys(t); !slices.Equal(left, keysOf(f.tree)) {
		t.Errorf("left in the bucket: %v, want the whole tree", left)
	}
	if len(r.Removed) > 0 {
		t.Errorf("removed[] = %v", r.removed())
	}
}

// TestRewrittenBetweenScanAndDeleteStays: an object rewritten after the
// scan, just before the batch that deletes it reaches the engine, stays
// (with its new content) and errors[] names it; the rest go.
func TestRewrittenBetweenScanAndDeleteStays(t *testing.T) {
	f := newFixture(t)
	victim := ".river/tmp/job-1/part-04.tmp"
	rewrite := s3test.Before(s3test.KindDeleteBatch, 0, func(s3test.Request) {
		if got := put(t, f, victim, "rewritten after the scan"); got == f.etags[victim] {
			t.Errorf("the rewrite kept the ETag %s", got)
		}
	}).OnKey(prefix + victim).Times(1)
	p := s3test.Proxy(t, f.srv, rewrite)
	r, stderr, code := f.gc(t, p.URL, f.gcArgs("--force")...)
	checkInvariants(t, f, p, r)
	if code != 1 {
		t.Errorf("exit %d, want 1 (errors[] not empty)\n%s", code, stderr)
	}
	if len(r.Errors) != 1 || r.Errors[0].Path != victim || !strings.Contains(r.Errors[0].Message, "changed") {
		t.Errorf("errors[] = %+v, want %s changed since the scan", r.Errors, victim)
	}
	if got := r.removed(); !slices.Equal(got, without(old(f.tree), victim)) {
		t.Errorf("removed[] = %v", got)
	}
	if got := get(t, f, victim); got != "rewritten after the scan" {
		t.Errorf("%s = %q, want the rewritten content kept", victim, got)
	}
}

// keysOf lists a tree's keys, sorted.
func keysOf(tr map[string]string) []string {
	var ks []string
	for k := range tr {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// faultedRequests counts the requests the proxy did something to.
func faultedRequests(p *s3test.FaultProxy) int {
	n := 0
	for _, r := range p.Requests() {
		if r.Fault != "" {
			n++
		}
	}
	return n
}
