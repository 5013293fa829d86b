//go:build linux

package gc

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/rivergc/scan"
	"github.com/plangate-gc/plangate-gc/skill"
)

// TestRunDirsRemovedOnlyAsJudged: the folders of a run whose files all go
// are candidates (never artifacts/evals, never a folder keeping a file);
// at removal, a folder swapped for a symlink or for another empty folder
// since it was judged stays, and so does one that is not empty.
func TestRunDirsRemovedOnlyAsJudged(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"artifacts/evals/a/sub", "artifacts/evals/b", "artifacts/evals/c", "artifacts/evals/d", "artifacts/evals/keep", "elsewhere"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := []scan.File{
		{Path: "artifacts/evals/a/summary.json", TimestampSource: scan.SourceMetadata},
		{Path: "artifacts/evals/a/sub/log.txt", TimestampSource: scan.SourceRun},
		{Path: "artifacts/evals/b/summary.json", TimestampSource: scan.SourceMetadata},
		{Path: "artifacts/evals/c/summary.json", TimestampSource: scan.SourceMetadata},
		{Path: "artifacts/evals/d/summary.json", TimestampSource: scan.SourceMetadata},
		{Path: "artifacts/evals/keep/summary.json", TimestampSource: scan.SourceMetadata},
		{Path: "artifacts/evals/keep/old.txt", TimestampSource: scan.SourceRun},
		{Path: "artifacts/evals/loose.json", TimestampSource: scan.SourceMetadata},
	}
	var removed []skill.Decision
	for _, f := range files {
		if f.Path != "artifacts/evals/keep/summary.json" {
			removed = append(removed, skill.Decision{Path: f.Path})
		}
	}
	dir, err := os.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	fd := int(dir.Fd())
	dirs := emptiedRunDirs(fd, files, removed, true)
	var names []string
	for _, d := range dirs {
		names = append(names, d.path)
	}
	want := []string{"artifacts/evals/a/sub", "artifacts/evals/a", "artifacts/evals/b", "artifacts/evals/c", "artifacts/evals/d"}
	if !slices.Equal(names, want) {
		t.Fatalf("candidates %q, want %q (deepest first)", names, want)
	}
	// Since judged: b became a symlink to an empty folder, c another empty
	// folder, d holds a file; a (and a/sub) are as judged.
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Remove(filepath.Join(root, "artifacts/evals/b")))
	must(os.Symlink("../../elsewhere", filepath.Join(root, "artifacts/evals/b")))
	must(os.Remove(filepath.Join(root, "artifacts/evals/c")))
	must(os.Mkdir(filepath.Join(root, "artifacts/evals/c"), 0o755))
	must(os.WriteFile(filepath.Join(root, "artifacts/evals/d/late.txt"), []byte("x"), 0o644))
	gone, stay := removeRunDirs(fd, dirs)
	if !slices.Equal(gone, []string{"artifacts/evals/a", "artifacts/evals/a/sub"}) {
		t.Errorf("removed %q, want a and a/sub", gone)
	}
	if !slices.Equal(stay, []string{"artifacts/evals/b", "artifacts/evals/c", "artifacts/evals/d"}) {
		t.Errorf("stay %q, want b, c, d", stay)
	}
	for _, p := range []string{"artifacts/evals", "artifacts/evals/b", "artifacts/evals/c", "artifacts/evals/d/late.txt", "elsewhere"} {
		if _, err := os.Lstat(filepath.Join(root, p)); err != nil {
			t.Errorf("%s: %v, want it kept", p, err)
		}
	}
}
