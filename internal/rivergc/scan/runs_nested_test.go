//go:build linux

package scan

import (
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/skill"
)

// TestScanEvalRunsNested (SPEC B5): in a nested layout,
// artifacts/evals/runs/<id>/, each run is the directory holding its
// summary.json, so every file of a run takes that run's timestamp — not
// the newest of all runs, as taking the first path segment ("runs") did.
func TestScanEvalRunsNested(t *testing.T) {
	now := time.Date(2025, 11, 29, 0, 0, 0, 0, time.UTC)
	old := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	newer := time.Date(2025, 11, 20, 0, 0, 0, 0, time.UTC).Unix()
	root := t.TempDir()
	files := map[string]string{
		"artifacts/evals/runs/a/summary.json":     `{"timestamp":"2025-01-01T00:00:00Z"}`,
		"artifacts/evals/runs/a/cases.jsonl":      "{}",
		"artifacts/evals/runs/a/report.md":        "# a",
		"artifacts/evals/runs/a/traces/t.jsonl":   "{}",
		"artifacts/evals/runs/b/summary.json":     `{"timestamp":"2025-11-20T00:00:00Z"}`,
		"artifacts/evals/runs/b/report.md":        "# b",
		"artifacts/evals/runs/b/cases/case1.json": `{"createdAt":"2024-06-01T00:00:00Z"}`,
		"artifacts/evals/runs/b/cases/out.txt":    "x",
	}
	for p, c := range files {
		write(t, root, p, c, now)
	}
	want := map[string]int64{
		"artifacts/evals/runs/a/cases.jsonl":    old,
		"artifacts/evals/runs/a/report.md":      old,
		"artifacts/evals/runs/a/traces/t.jsonl": old,
		"artifacts/evals/runs/b/report.md":      newer,
		// below a run, a subdirectory with metadata of its own is still
		// the run's: its other files take the run's newest timestamp.
		"artifacts/evals/runs/b/cases/out.txt": newer,
	}
	res := scanRoot(t, root, skill.ScopeEvals, Options{Metadata: true})
	for _, f := range res.Files {
		if w, ok := want[f.Path]; ok && (f.Timestamp != w || f.TimestampSource != SourceRun) {
			t.Errorf("%s: %d (%s), want %d (run)", f.Path, f.Timestamp, f.TimestampSource, w)
		}
	}
}
