//go:build linux

package gc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/skill"
)

// TestEveryDeletedFileWasJournaledFirst (SPEC B4, decision 162): with
// the next batch's intents written while a batch is deleted, a file is
// still never gone before its intent is on the disk. During a run over
// twenty batches, after every deletion, every target already gone must
// be named by the journal as it is on the disk then.
func TestEveryDeletedFileWasJournaledFirst(t *testing.T) {
	defer func(b int) { journalBatch = b }(journalBatch)
	journalBatch = 16
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".river/tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	n := 20*journalBatch + 3
	var rels []string
	for i := range n {
		rel := fmt.Sprintf(".river/tmp/d%d/f%05d", i%3, i)
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
		rels = append(rels, rel)
	}
	cfg := config(t, root, true)
	cfg.Scopes = []skill.Scope{skill.ScopeTmp}
	checks := 0
	cfg.Progress = func(done, total int) {
		checks++
		// The workers go on meanwhile: what is gone is looked at first,
		// the journal read after, so a file gone then was journaled
		// before the read (the journal only grows).
		var gone []string
		for _, rel := range rels {
			if _, err := os.Lstat(filepath.Join(root, rel)); errors.Is(err, os.ErrNotExist) {
				gone = append(gone, rel)
			}
		}
		b, err := os.ReadFile(filepath.Join(root, ".river/gc-journal"))
		if err != nil {
			t.Errorf("after %d deletions: %v", done, err)
			return
		}
		journaled := map[string]bool{}
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.SplitN(line, " ", 6); len(f) == 6 && f[0] == "delete" {
				if p, err := strconv.Unquote(f[5]); err == nil {
					journaled[p] = true
				}
			}
		}
		for _, rel := range gone {
			if !journaled[rel] {
				t.Fatalf("after %d deletions: %s is gone and not in the journal (%d intents)", done, rel, len(journaled))
			}
		}
	}
	out, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(removedPaths(out)); got != n {
		t.Fatalf("removed %d, want %d (errors %v)", got, n, out.Errors)
	}
	if checks < n {
		t.Fatalf("only %d checks", checks)
	}
}
