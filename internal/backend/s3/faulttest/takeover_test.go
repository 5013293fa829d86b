package faulttest

import (
	"bytes"
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/s3test"
)

// TestStaleLeaseTakenOverWhileTheFirstRunWorks (SPEC H4,
// decision 193): run A stalls with its first batch of old objects on the
// wire past its lease — held before the engine sees it, or after the
// engine acted and before A gets the answer; run B takes the lease over
// and runs to its end; then A goes on. Both delete only by ETag: no key
// is deleted twice, none the policy keeps, every old object is gone, and
// every deletion of A's is named by A's removed[], B's removed[] or B's
// interrupted.
func TestStaleLeaseTakenOverWhileTheFirstRunWorks(t *testing.T) {
	for _, acted := range []bool{false, true} {
		t.Run(map[bool]string{false: "held before the engine", true: "answer held after the engine acted"}[acted], func(t *testing.T) {
			f := newFixture(t)
			var b record
			var bStderr string
			var bCode int
			runB := func() {
				expireLease(t, f)
				b, bStderr, bCode = f.gc(t, f.srv.Endpoint, f.gcArgs("--force")...)
			}
			var endpoint string
			var deletedByA func() []string
			if acted {
				var once sync.Once
				l := newLiar(t, f.srv.Endpoint, func(l *liar, r *http.Request, body []byte) (int, http.Header, []byte, bool) {
					if !isBatchDelete(r) || !bytes.Contains(body, []byte("<Key>"+prefix+".river/tmp/")) {
						return 0, nil, nil, false
					}
					status, h, answer, err := l.forward(r, body)
					if err != nil {
						return http.StatusBadGateway, nil, []byte(err.Error()), true
					}
					once.Do(runB)
					return status, h, answer, true
				})
				endpoint, deletedByA = l.URL, func() []string { return l.treeDeleted(t, f) }
			} else {
				p := s3test.Proxy(t, f.srv, s3test.Before(s3test.KindDeleteBatch, 0, func(s3test.Request) { runB() }).OnKeyPrefix(prefix+".river/tmp/").Times(1))
				endpoint, deletedByA = p.URL, func() []string { return engineDeleted(t, p) }
			}
			a, aStderr, aCode := f.gc(t, endpoint, f.gcArgs("--force")...)
			if bCode != 0 {
				t.Errorf("B: exit %d, errors %+v\n%s", bCode, b.Errors, bStderr)
			}
			named := union(a.removed(), b.removed())
			if b.Interrupted != nil {
				named = union(named, b.Interrupted.Removed)
			}
			byA := deletedByA()
			if acted && len(byA) == 0 {
				t.Errorf("A's held batch deleted nothing: the case tests nothing")
			}
			for _, k := range byA {
				if !slices.Contains(named, k) {
					t.Errorf("A's requests deleted %s and no record names it (A exit %d %+v)\n%s", k, aCode, a.Errors, aStderr)
				}
			}
			for _, k := range named {
				if !slices.Contains(old(f.tree), k) {
					t.Errorf("%s named as deleted, which the policy keeps", k)
				}
			}
			if left := f.keys(t); !slices.Equal(left, without(keysOf(f.tree), old(f.tree)...)) {
				t.Errorf("left in the bucket: %v", left)
			}
		})
	}
}
