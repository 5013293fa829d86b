//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// oldIndex is a memory index with one event record river gc removes at
// forceArgs' --now and one live decision.
const oldIndex = `{
  "version": "1",
  "entries": [
    {
      "id": "rev",
      "type": "review",
      "content": "x",
      "metadata": {
        "createdAt": "2000-01-01T00:00:00.000Z"
      }
    },
    {
      "id": "dec",
      "type": "decision",
      "content": "x",
      "metadata": {
        "createdAt": "2000-01-01T00:00:00.000Z"
      }
    }
  ]
}
`

// TestSigtermDuringDeletionsAndRewrite (SPEC D5, B4): a real --force run
// with files to delete and a memory index to rewrite, SIGTERMed during
// its deletions, leaves a record that names both: removed[] lists exactly
// the files gone, and errors[] names the index, left as it was (the
// rewrite is not attempted after the signal); exit 1. The rerun finishes
// both and leaves no journal.
func TestSigtermDuringDeletionsAndRewrite(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a 5,000-file tree")
	}
	bin := buildBinary(t)
	scopes := []string{"--scope", "tmp", "--scope", "memory-entries"}
	var (
		root, index, result, stderr string
		before                      []string
		code                        int
	)
	// The stop must land while files are being deleted; on a loaded
	// machine the whole run can end between two polls of the waiter, so
	// a run that finished (exit 0) is tried again on a fresh tree.
	for attempt := 1; ; attempt++ {
		root = memDir(t)
		before = oldTree(t, root, 5000, 50)
		index = filepath.Join(root, ".river/memory/index.json")
		if err := os.MkdirAll(filepath.Dir(index), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(index, []byte(oldIndex), 0o644); err != nil {
			t.Fatal(err)
		}
		result = filepath.Join(t.TempDir(), "gc.json")
		code, stderr = stopDuringDeletionWith(t, bin, root, result, scopes, syscall.SIGTERM)
		if code != 0 || attempt == 5 {
			break
		}
		t.Logf("attempt %d: the run ended before the stop landed; again on a fresh tree", attempt)
	}
	b, err := os.ReadFile(result)
	if err != nil {
		t.Fatalf("no record (exit %d, stderr %s): %v", code, stderr, err)
	}
	rec := readRecord(t, b)
	after := regularFiles(t, root)
	gone := slices.DeleteFunc(slices.Clone(before), func(p string) bool { return slices.Contains(after, p) })
	var listed []string
	for _, r := range rec.Removed {
		listed = append(listed, r.Path)
	}
	slices.Sort(listed)
	if code != 1 || len(gone) == 0 || !slices.Equal(listed, gone) {
		t.Fatalf("exit %d; removed[] lists %d files, %d are gone; stderr %s", code, len(listed), len(gone), stderr)
	}
	named := false
	for _, e := range rec.Errors {
		named = named || (e.Path == ".river/memory/index.json" && strings.Contains(e.Message, "interrupted"))
	}
	if !named {
		t.Errorf("errors[] %+v do not name the index the stop left unrewritten", rec.Errors)
	}
	if got, _ := os.ReadFile(index); string(got) != oldIndex {
		t.Errorf("the index changed after the stop:\n%s", got)
	}
	rerun, err := exec.Command(bin, append(append(slices.Clone(forceArgs), "--root", root), scopes...)...).Output()
	if err != nil {
		t.Fatalf("rerun: %v", err)
	}
	rec = readRecord(t, rerun)
	if !slices.ContainsFunc(rec.Removed, func(r struct{ Path string }) bool { return r.Path == ".river/memory/index.json#rev" }) {
		t.Errorf("the rerun's removed[] lacks the event record: %+v", rec.Removed)
	}
	for _, p := range regularFiles(t, root) {
		if p != ".river/memory/index.json" {
			t.Errorf("left after the rerun: %s", p)
		}
	}
}
