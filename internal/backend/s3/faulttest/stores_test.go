package faulttest

import (
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/s3test"
)

// storeIndex is a memory index with one review entry past the retention
// (r1) and two River Review keeps.
const storeIndex = `{"version":"1","entries":[
{"id":"r1","type":"review","title":"t","content":"c","metadata":{"createdAt":"2024-01-01T00:00:00Z"}},
{"id":"a1","type":"adr","title":"t","content":"c","metadata":{"createdAt":"2020-01-01T00:00:00Z"}}]}
`

// TestStoreRewrittenByAThirdPartyStays (SPEC H3, D5): the memory
// index in a bucket is read, judged and written back with PUT If-Match.
// A third party that rewrites it between river gc's read and its write
// loses nothing: its bytes stay, errors[] names the store (exit 1), and
// no entry is counted as removed. An answer to river gc's own write that
// is lost after the engine wrote is read back and found its own: the
// rewrite stands (exit 0).
func TestStoreRewrittenByAThirdPartyStays(t *testing.T) {
	const index = ".river/memory/index.json"
	theirs := strings.Replace(storeIndex, `"a1"`, `"a1-theirs"`, 1)
	for _, tc := range []struct {
		name   string
		fault  func(f *fixture) s3test.Fault
		want   string // the index after the run
		failed bool
	}{
		{"rewritten before river gc's write", func(f *fixture) s3test.Fault {
			return s3test.Before(s3test.KindPut, 0, func(s3test.Request) { put(t, f, index, theirs) }).OnKey(prefix + index).Times(1)
		}, theirs, true},
		{"answer to river gc's write lost", func(*fixture) s3test.Fault {
			return s3test.DropResponse(s3test.KindPut, 0).OnKey(prefix + index).Times(1)
		}, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			put(t, f, index, storeIndex)
			p := s3test.Proxy(t, f.srv, tc.fault(f))
			r, stderr, code := f.gc(t, p.URL, f.gcArgs("--force", "--scope", "memory-entries")...)
			got := get(t, f, index)
			if tc.failed {
				if code != 1 || len(r.Errors) != 1 || r.Errors[0].Path != index || !strings.Contains(r.Errors[0].Message, "changed") {
					t.Errorf("exit %d, errors %+v; want 1 and %s changed\n%s", code, r.Errors, index, stderr)
				}
				if len(r.Removed) > 0 {
					t.Errorf("removed[] = %v, want nothing of a store left as it is", r.removed())
				}
			} else if code != 0 || len(r.Errors) > 0 || strings.Contains(got, `"r1"`) || !strings.Contains(got, `"a1"`) {
				t.Errorf("exit %d, errors %+v, index %q; want r1 removed and a1 kept\n%s", code, r.Errors, got, stderr)
			}
			if tc.want != "" && got != tc.want {
				t.Errorf("index = %q, want the third party's %q", got, tc.want)
			}
			if faultedRequests(p) == 0 {
				t.Errorf("no request met the fault: the case tests nothing")
			}
		})
	}
}
