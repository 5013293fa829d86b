package faulttest

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/s3test"
)

// TestTwoForceRunsAtOnce (SPEC H4): two --force runs started
// together on one prefix (every request delayed, so that they overlap):
// exactly one takes the lock and removes the old objects, the other
// exits 1 naming the lock's holder and when it started, and removes
// nothing; no key is deleted twice,
// and a dry-run alongside reports no killed run's journal.
func TestTwoForceRunsAtOnce(t *testing.T) {
	f := newFixture(t)
	p := s3test.Proxy(t, f.srv, s3test.Delay("", 30*time.Millisecond))
	type result struct {
		r      record
		stderr string
		code   int
	}
	results := make([]result, 3)
	var wg sync.WaitGroup
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mode := "--force"
			if i == 2 {
				mode = "--dry-run"
			}
			r, stderr, code := f.gc(t, p.URL, f.gcArgs(mode)...)
			results[i] = result{r, stderr, code}
		}()
	}
	wg.Wait()
	won := 0
	for i, res := range results[:2] {
		switch {
		case res.code == 0 && slices.Equal(res.r.removed(), old(f.tree)):
			won++
		case res.code == 1 && len(res.r.Removed) == 0 && strings.Contains(res.stderr, "holds the lock") && !strings.Contains(res.stderr, "started ?"):
		default:
			t.Errorf("run %d: exit %d, removed %v\n%s", i, res.code, res.r.removed(), res.stderr)
		}
	}
	if won != 1 {
		t.Errorf("%d runs removed the old objects, want exactly one", won)
	}
	if d := results[2]; d.code != 0 || d.r.Interrupted != nil {
		t.Errorf("the dry-run: exit %d, interrupted %+v\n%s", d.code, d.r.Interrupted, d.stderr)
	}
	if got := engineDeleted(t, p); !slices.Equal(got, old(f.tree)) {
		t.Errorf("the engine deleted %v, want %v", got, old(f.tree))
	}
}
