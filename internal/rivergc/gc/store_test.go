//go:build linux

package gc

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/fserr"
	"github.com/plangate-gc/plangate-gc/skill"
)

const testIndex = `{
  "version": "1",
  "entries": [
    {
      "id": "old-review",
      "type": "review",
      "content": "x",
      "metadata": {
        "createdAt": "2000-01-01T00:00:00.000Z"
      }
    },
    {
      "id": "adr",
      "type": "adr",
      "content": "x",
      "metadata": {
        "createdAt": "2000-01-01T00:00:00.000Z"
      }
    }
  ]
}
`

const keptIndex = `{
  "version": "1",
  "entries": [
    {
      "id": "adr",
      "type": "adr",
      "content": "x",
      "metadata": {
        "createdAt": "2000-01-01T00:00:00.000Z"
      }
    }
  ]
}
`

func storeRoot(t *testing.T, index string) string {
	t.Helper()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".river/memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".river/memory/index.json"), []byte(index), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

func removedPaths(o Outcome) []string {
	var out []string
	for r := range o.Removed() {
		out = append(out, r.Path)
	}
	return out
}

func TestMemoryEntriesRewrite(t *testing.T) {
	root := storeRoot(t, testIndex)
	cfg := config(t, root, true)
	cfg.Scopes = []skill.Scope{skill.ScopeMemoryEntries}
	var intended []string
	cfg.Intend = func(temp, target string) error { intended = append(intended, target); return nil }
	out, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := removedPaths(out); !slices.Equal(got, []string{".river/memory/index.json#old-review"}) || len(out.Errors) != 0 {
		t.Fatalf("removed %v, errors %v", got, out.Errors)
	}
	if got, _ := os.ReadFile(filepath.Join(root, ".river/memory/index.json")); string(got) != keptIndex {
		t.Errorf("index:\n%s", got)
	}
	if !slices.Equal(intended, []string{".river/memory/index.json"}) {
		t.Errorf("Intend saw %v", intended)
	}
	if s := out.Scopes[0]; s.Kept != 1 || s.Protected.HardGuarded != 1 {
		t.Errorf("scope %+v", s)
	}
	// Reclaimed space is what the file shrank by (SPEC B4: bytes freed).
	if want := uint64(len(testIndex) - len(keptIndex)); out.FreedBytes.String() != strconv.FormatUint(want, 10) {
		t.Errorf("freed %s bytes, the index shrank by %d", out.FreedBytes, want)
	}
}

// TestChangedIndexIsNotRewritten: a writer appends an entry after river
// gc read the index (here: from the Intend hook, after the temporary file
// is written and before the check): the original stays, with the new
// entry, the removal is undone in the outcome and errors[] says why.
func TestChangedIndexIsNotRewritten(t *testing.T) {
	root := storeRoot(t, testIndex)
	p := filepath.Join(root, ".river/memory/index.json")
	cfg := config(t, root, true)
	cfg.Scopes = []skill.Scope{skill.ScopeMemoryEntries}
	changed := strings.Replace(testIndex, `"entries": [`, `"entries": [{"id":"new","type":"adr","content":"n","metadata":{}},`, 1)
	cfg.Intend = func(string, string) error { return os.WriteFile(p, []byte(changed), 0o644) }
	out, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != changed {
		t.Errorf("the writer's version was replaced:\n%s", got)
	}
	if len(out.Errors) != 1 || out.Errors[0].Op != fserr.OpRewrite || !errors.Is(out.Errors[0].Err, fserr.ErrChanged) {
		t.Fatalf("errors %v", out.Errors)
	}
	if got := removedPaths(out); got != nil || out.Scopes[0].Kept != 2 {
		t.Errorf("removed %v, kept %d", got, out.Scopes[0].Kept)
	}
	if m, _ := filepath.Glob(filepath.Join(root, ".river/memory/.river-gc-rewrite*")); m != nil {
		t.Errorf("left %v", m)
	}
}

// TestSymlinkedIndexIsNotFollowed: an index.json that is a symlink is
// neither read nor rewritten; what it points to stays as it was.
func TestSymlinkedIndexIsNotFollowed(t *testing.T) {
	root := storeRoot(t, testIndex)
	outside := filepath.Join(t.TempDir(), "index.json")
	if err := os.WriteFile(outside, []byte(testIndex), 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, ".river/memory/index.json")
	os.Remove(p)
	if err := os.Symlink(outside, p); err != nil {
		t.Fatal(err)
	}
	cfg := config(t, root, true)
	cfg.Scopes = []skill.Scope{skill.ScopeMemoryEntries}
	out, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(outside); string(got) != testIndex {
		t.Errorf("target rewritten")
	}
	if fi, err := os.Lstat(p); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link replaced: %v", err)
	}
	if len(out.Errors) != 1 || out.Errors[0].Op != fserr.OpReadStore || !errors.Is(out.Errors[0].Err, fserr.ErrNotRegular) {
		t.Errorf("errors %v", out.Errors)
	}
}

// TestNotAnIndexIsAnError: an index that is not in its writer's form is
// not judged, and says so.
func TestNotAnIndexIsAnError(t *testing.T) {
	root := storeRoot(t, `{"entries": {}}`)
	cfg := config(t, root, true)
	cfg.Scopes = []skill.Scope{skill.ScopeMemoryEntries}
	out, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Errors) != 1 || !errors.Is(out.Errors[0].Err, fserr.ErrNotStore) {
		t.Errorf("errors %v", out.Errors)
	}
}

// TestTrackedStoreIsKeptWhole: an index tracked in git is the user's
// committed content: its entries count as tracked and nothing is
// rewritten.
func TestTrackedStoreIsKeptWhole(t *testing.T) {
	root := storeRoot(t, testIndex)
	cfg := config(t, root, true)
	cfg.Scopes = []skill.Scope{skill.ScopeMemoryEntries}
	cfg.Tracked = trackedSet{".river/memory/index.json": true}
	out, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := removedPaths(out); got != nil || out.Scopes[0].Protected.Tracked != 2 {
		t.Errorf("removed %v, scope %+v", got, out.Scopes[0])
	}
	if got, _ := os.ReadFile(filepath.Join(root, ".river/memory/index.json")); string(got) != testIndex {
		t.Errorf("rewritten")
	}
}

type trackedSet map[string]bool

func (s trackedSet) Contains(p string) bool { return s[p] }

// TestInventoryCarriesTheClosure: the emitted document's hardGuards make
// the engine reproduce the run's removals (the pipe agrees).
func TestInventoryCarriesTheClosure(t *testing.T) {
	idx := `{"version":"1","entries":[
{"id":"a","type":"adr","status":"superseded","supersededBy":"b","content":"x","metadata":{"createdAt":"2025-11-28T00:00:00Z"}},
{"id":"b","type":"adr","status":"archived","content":"x","metadata":{"createdAt":"2000-01-01T00:00:00Z"}},
{"id":"c","type":"adr","status":"archived","supersededBy":"d","content":"x","metadata":{"createdAt":"2000-01-01T00:00:00Z"}},
{"id":"d","type":"review","content":"x","metadata":{"createdAt":"2000-01-01T00:00:00Z"}}]}`
	root := storeRoot(t, idx)
	cfg := config(t, root, true)
	cfg.Mode = DryRun
	cfg.Scopes = []skill.Scope{skill.ScopeMemoryEntries}
	out, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".river/memory/index.json#c", ".river/memory/index.json#d"}
	if got := removedPaths(out); !slices.Equal(got, want) {
		t.Fatalf("removed %v, want %v (b is kept: a refers to it)", got, want)
	}
	docs, _ := Inventories(cfg)
	res, err := skill.Judge(docs[0])
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range res.Removed {
		got = append(got, d.Path)
	}
	if !slices.Equal(got, want) {
		t.Errorf("the engine on the emitted document removes %v", got)
	}
}

// TestInterruptedRunRewritesNothing: after SIGINT/SIGTERM (a cancelled
// context) no store is rewritten; errors[] says how many entries were not
// removed and the outcome keeps them.
func TestInterruptedRunRewritesNothing(t *testing.T) {
	root := storeRoot(t, testIndex)
	cfg := config(t, root, true)
	cfg.Scopes = []skill.Scope{skill.ScopeMemoryEntries}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out, err := Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var intr *fserr.InterruptedError
	if len(out.Errors) != 1 || !errors.As(out.Errors[0].Err, &intr) || intr.NotAttempted != 1 {
		t.Fatalf("errors %v", out.Errors)
	}
	if got := removedPaths(out); got != nil {
		t.Errorf("removed %v", got)
	}
	if got, _ := os.ReadFile(filepath.Join(root, ".river/memory/index.json")); string(got) != testIndex {
		t.Errorf("rewritten")
	}
}
