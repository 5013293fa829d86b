//go:build linux

package gc

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/backend/local/journal"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
)

// containsOnly is a tracked set that can only answer Contains (no
// FilesWithPrefix): the journal names are asked about one by one.
type containsOnly []string

func (c containsOnly) Contains(rel string) bool { return slices.Contains(c, rel) }

// TestTrackedJournalRefusesForce (decision 346): with a journal name the
// git index tracks, a --force run on a directory root is refused before
// it changes anything — an *fserr.Error naming the file, cause
// fserr.ErrTrackedJournal — and a dry-run neither reads it (no
// interrupted run) nor changes it, and warns, naming the pattern to
// ignore.
func TestTrackedJournalRefusesForce(t *testing.T) {
	root, cfg := journalRoot(t)
	const body = "river-gc-journal 1\nrun\ndelete 1 2 3 4 \".river/tmp/gone\"\n"
	p := filepath.Join(root, journal.AltPath)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg.Tracked = containsOnly{journal.AltPath}
	_, err := Run(context.Background(), cfg)
	var fe *fserr.Error
	if !errors.As(err, &fe) || fe.Path != journal.AltPath || fe.Op != fserr.OpJournal || !errors.Is(err, fserr.ErrTrackedJournal) {
		t.Errorf("--force: %v; want the tracked %s refused", err, journal.AltPath)
	}
	if _, err := os.Lstat(filepath.Join(root, ".river/tmp/old")); err != nil {
		t.Errorf("--force refused deleted .river/tmp/old: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(root, journal.Path)); err == nil {
		t.Errorf("--force refused wrote %s", journal.Path)
	}
	cfg.Mode = DryRun
	out, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if in := out.Interrupted; in != nil && (len(in.Journals) > 0 || len(in.Removed) > 0) {
		t.Errorf("dry-run read the tracked journal: %+v", *in)
	}
	want := Warning{Kind: WarnTrackedJournal, Path: journal.AltPath, Target: journal.AltPath + "*"}
	if !slices.Contains(out.Warnings, want) {
		t.Errorf("dry-run warnings %+v; want %+v", out.Warnings, want)
	}
	if b, err := os.ReadFile(p); err != nil || string(b) != body {
		t.Errorf("the tracked journal: %q, %v; want it unchanged", b, err)
	}
}
