//go:build linux

package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestWriterRewriteDuringExchangeKeepsItsPath (attack, SPEC B2, decision
// 360): .river/tmp holds state.json, which the --force run did not scan
// (made after the scan, or by a writer whose working directory is
// .river/tmp), when the run exchanges the directory; while it is
// exchanged, a writer writes state.json again by its path, which now
// leads into the fresh directory. When the run exchanges back, the path
// must show what the writer wrote last: the run changes what a path
// shows only by deleting its targets. The first version, which the
// rewrite replaced at that path, may stay under the private name
// (errors[]), never the other way round. Today the exchange back puts
// the first version at the path and hides the writer's last write under
// .river/.river-gc-deleting.tmp, where every later run leaves it (exit 1
// each time).
func TestWriterRewriteDuringExchangeKeepsItsPath(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	root := memDir(t)
	before := scopeTree(t, root, 3000)
	r := startStoppedAt(t, bin, root, exchanged)
	// The directory scanned, now under the private name, gets a file
	// the run never judged (as one made there just after the scan).
	if err := os.WriteFile(filepath.Join(root, scopePrivate, "state.json"), []byte("first"), 0o644); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(root, ".river/tmp/state.json")
	if err := os.WriteFile(state, []byte("second"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, rec := r.finish(t)
	if b, err := os.ReadFile(state); err != nil || string(b) != "second" {
		t.Errorf(".river/tmp/state.json after the run: %q, %v; want the writer's last write, %q", b, err, "second")
	}
	if got := removedPaths(rec); !slices.Equal(got, before) {
		t.Errorf("removed[] lists %d files, want the %d scanned", len(got), len(before))
	}
	var first bool // the first version is kept somewhere below the root
	for _, p := range regularFiles(t, root) {
		if b, _ := os.ReadFile(filepath.Join(root, p)); string(b) == "first" {
			first = true
		}
	}
	if !first {
		t.Error("the first version is gone")
	}
}
