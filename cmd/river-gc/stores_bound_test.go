//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestStoreHintIsBounded (SPEC B7, decision 224): the default dry-run's
// hint judges a store only up to hintBound; a larger ledger is named with
// its size and the flag that judges it, and is not judged (its old lines
// are not counted as reclaimable), while a small index next to it still
// is.
func TestStoreHintIsBounded(t *testing.T) {
	bin := buildBinary(t)
	root := t.TempDir()
	ledger := filepath.Join(root, "artifacts/evals/results.jsonl")
	if err := os.MkdirAll(filepath.Dir(ledger), 0o755); err != nil {
		t.Fatal(err)
	}
	line := `{"timestamp":"2000-01-01T00:00:00.000Z","pad":"` + strings.Repeat("x", 200) + "\"}\n"
	big := strings.Repeat(line, int(hintBound)/len(line)+1) + `{"timestamp":"2199-12-31T00:00:00.000Z"}` + "\n"
	if err := os.WriteFile(ledger, []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(root, ".river/memory/index.json")
	if err := os.MkdirAll(filepath.Dir(index), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(index, []byte(oldIndex), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "--root", root, "--now", future, "--lang", "en").Output()
	if err != nil {
		t.Fatalf("dry-run: %v\n%s", err, out)
	}
	s := string(out)
	if !strings.Contains(s, "River Review's store of scope eval-ledger (1.0 MiB) is too large to judge for this hint; run with --scope eval-ledger to judge it") {
		t.Errorf("the large ledger is not named as unjudged:\n%s", s)
	}
	if !strings.Contains(s, "add --scope memory-entries to reach it") || strings.Contains(s, "scope eval-ledger: ") {
		t.Errorf("the small index is not judged, or the ledger was:\n%s", s)
	}
}
