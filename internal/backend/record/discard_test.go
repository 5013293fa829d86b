package record_test

import (
	"context"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/backend"
	"github.com/plangate-gc/plangate-gc/internal/backend/local"
	"github.com/plangate-gc/plangate-gc/internal/backend/record"
)

// deletes counts a Backend's Delete requests.
type deletes struct {
	backend.Backend
	requests int
}

func (d *deletes) Delete(ctx context.Context, objs []backend.Object) []error {
	d.requests++
	return d.Backend.Delete(ctx, objs)
}

// TestDiscardRemovesARunsObjectsInOneRequest: a bucket run's journal
// objects (a batch, then done) go in one Delete, as they went before the
// record was one package (SPEC H6's request count), and all of them go.
func TestDiscardRemovesARunsObjectsInOneRequest(t *testing.T) {
	ctx := context.Background()
	dir, err := local.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b := &deletes{Backend: dir}
	j := record.NewObjects(b, ".river/gc-journal/", "run1")
	w := record.NewWriter(j, nil)
	if err := w.Intend(ctx, []record.Intent{{Op: record.Delete, Key: ".river/tmp/a", Tag: `"t"`}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Done(ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(w.Units()); n != 2 {
		t.Fatalf("the run wrote %d objects, want its batch and done", n)
	}
	if err := record.Discard(ctx, j, nil, w); err != nil {
		t.Fatal(err)
	}
	left, err := j.List(ctx)
	if err != nil || len(left) != 0 || b.requests != 1 {
		t.Errorf("after Discard: %d journal objects left (%v), %d Delete requests; want none left, one request", len(left), err, b.requests)
	}
}
