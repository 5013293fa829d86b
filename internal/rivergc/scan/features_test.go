//go:build linux

package scan

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/skill"
)

// TestScanBackslashNames: a backslash is an ordinary byte in a Linux name;
// such a file is a regular file and is listed (the engine then calls the
// path non-canonical and river gc keeps it with a warning).
func TestScanBackslashNames(t *testing.T) {
	root := t.TempDir()
	write(t, root, `.river/memory/a\b.json`, `{"timestamp":"2021-01-01T00:00:00Z"}`, epoch)
	write(t, root, `.river/memory/dir\x/c`, "x", epoch)
	write(t, root, `artifacts/review-\.md`, "x", epoch)
	res := scanRoot(t, root, skill.ScopeMemory, Options{Metadata: true})
	if got, want := paths(res.Files), []string{`.river/memory/a\b.json`, `.river/memory/dir\x/c`}; !slices.Equal(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
	if f, _ := find(res.Files, `.river/memory/a\b.json`); f.TimestampSource != SourceMetadata {
		t.Errorf("metadata not read: %+v", f)
	}
	res = scanRoot(t, root, skill.ScopeReviewArtifacts, Options{})
	if got, want := paths(res.Files), []string{`artifacts/review-\.md`}; !slices.Equal(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
	if len(res.Errors) != 0 || len(res.Notes) != 0 {
		t.Errorf("errors %+v notes %+v", res.Errors, res.Notes)
	}
}

// TestScanLeftovers: files and directories under sweep's private name are
// reported for restoring, never judged as Files nor descended.
func TestScanLeftovers(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{
		".river/tmp/a",
		".river/tmp/.river-gc-deleting.a",
		".river/tmp/x/.river-gc-deleting.b.json",
		".river/tmp/.river-gc-deleting", // not the prefix: an ordinary file
		".river/tmp/.river-gc-deletingX",
		"artifacts/.tmp/.river-gc-deleting.c",
		"artifacts/.river-gc-deleting.review-artifact-1.json",
		"artifacts/.river-gc-deleting.unrelated.txt",
	} {
		write(t, root, p, "x", epoch)
	}
	mkdir(t, root, ".river/tmp/.river-gc-deleting.dir")
	write(t, root, ".river/tmp/.river-gc-deleting.dir/inner", "x", epoch)
	res := scanRoot(t, root, skill.ScopeTmp, Options{Metadata: true})
	if got, want := paths(res.Files), []string{
		".river/tmp/.river-gc-deleting",
		".river/tmp/.river-gc-deletingX",
		".river/tmp/a",
	}; !slices.Equal(got, want) {
		t.Errorf("files %q\nwant %q", got, want)
	}
	if want := []string{".river/tmp/.river-gc-deleting.a", ".river/tmp/.river-gc-deleting.dir", ".river/tmp/x/.river-gc-deleting.b.json", "artifacts/.tmp/.river-gc-deleting.c"}; !slices.Equal(res.Leftovers, want) {
		t.Errorf("leftovers %q\nwant %q", res.Leftovers, want)
	}
	res = scanRoot(t, root, skill.ScopeReviewArtifacts, Options{})
	if len(res.Files) != 0 || !slices.Equal(res.Leftovers, []string{"artifacts/.river-gc-deleting.review-artifact-1.json"}) {
		t.Errorf("review-artifacts: files %q leftovers %q", paths(res.Files), res.Leftovers)
	}
}

// TestScanEvalRuns: SPEC B3, eval runs stay whole.
func TestScanEvalRuns(t *testing.T) {
	const (
		old   = 1609459200 // 2021-01-01T00:00:00Z
		older = 1577836800 // 2020-01-01T00:00:00Z
	)
	now := time.Unix(1_800_000_000, 0) // as after a CI checkout: every mtime is "now"
	root := t.TempDir()
	files := map[string]string{
		// run-a: a ledger with an old timestamp, everything else without one.
		"artifacts/evals/run-a/ledger.json":      `{"timestamp":"2021-01-01T00:00:00Z"}`,
		"artifacts/evals/run-a/deep/older.json":  `{"metadata":{"createdAt":"2020-01-01T00:00:00Z"}}`,
		"artifacts/evals/run-a/out.txt":          "x",
		"artifacts/evals/run-a/deep/plain.json":  `{"no":"timestamp"}`,
		"artifacts/evals/run-a/deep/broken.json": `{`,
		// run-b: no metadata at all, so mtimes stay.
		"artifacts/evals/run-b/out.txt": "x",
		"artifacts/evals/run-b/x.json":  `{}`,
		// a run-a look-alike and a file directly in artifacts/evals/.
		"artifacts/evals/run-a.txt":   "x",
		"artifacts/evals/run-a-2/log": "x",
		"artifacts/evals/top.json":    `{}`,
	}
	for p, c := range files {
		write(t, root, p, c, now)
	}
	type ts struct {
		sec int64
		src TimestampSource
	}
	want := map[string]ts{
		"artifacts/evals/run-a/ledger.json":      {old, SourceMetadata},
		"artifacts/evals/run-a/deep/older.json":  {older, SourceMetadata},
		"artifacts/evals/run-a/out.txt":          {old, SourceRun},
		"artifacts/evals/run-a/deep/plain.json":  {old, SourceRun},
		"artifacts/evals/run-a/deep/broken.json": {old, SourceRun},
		"artifacts/evals/run-b/out.txt":          {now.Unix(), SourceMtime},
		"artifacts/evals/run-b/x.json":           {now.Unix(), SourceMtime},
		"artifacts/evals/run-a.txt":              {now.Unix(), SourceMtime},
		"artifacts/evals/run-a-2/log":            {now.Unix(), SourceMtime},
		"artifacts/evals/top.json":               {now.Unix(), SourceMtime},
	}
	res := scanRoot(t, root, skill.ScopeEvals, Options{Metadata: true})
	if len(res.Files) != len(want) {
		t.Fatalf("files %q", paths(res.Files))
	}
	for _, f := range res.Files {
		if w := want[f.Path]; f.Timestamp != w.sec || f.TimestampSource != w.src {
			t.Errorf("%s: %d (%s), want %d (%s)", f.Path, f.Timestamp, f.TimestampSource, w.sec, w.src)
		}
	}
	// --timestamp mtime: no metadata, so no run timestamps either.
	for _, f := range scanRoot(t, root, skill.ScopeEvals, Options{}).Files {
		if f.TimestampSource != SourceMtime || f.Timestamp != now.Unix() {
			t.Errorf("mtime mode: %s: %d (%s)", f.Path, f.Timestamp, f.TimestampSource)
		}
	}
	// Other scopes have no runs.
	write(t, root, ".river/tmp/evals-like/r.json", `{"timestamp":"2021-01-01T00:00:00Z"}`, now)
	write(t, root, ".river/tmp/evals-like/o.txt", "x", now)
	if f, _ := find(scanRoot(t, root, skill.ScopeTmp, Options{Metadata: true}).Files, ".river/tmp/evals-like/o.txt"); f.TimestampSource != SourceMtime {
		t.Errorf("tmp scope used a run timestamp: %+v", f)
	}
}

// TestScanDirs: the scope's own directory and every directory below it
// with a file of its own are listed with the count of all their entries,
// whatever they are (what package gc needs to decide one may be held
// whole); one with no file of its own is not.
func TestScanDirs(t *testing.T) {
	root := t.TempDir()
	write(t, root, ".river/tmp/top", "x", epoch)
	write(t, root, ".river/tmp/a/f", "x", epoch)
	write(t, root, ".river/tmp/a/b/g", "x", epoch)
	write(t, root, ".river/tmp/a/b/h", "x", epoch)
	mkdir(t, root, ".river/tmp/a/empty")
	mkdir(t, root, ".river/tmp/only-dirs/c")
	write(t, root, ".river/tmp/only-dirs/c/i", "x", epoch)
	if err := os.Symlink("f", filepath.Join(root, ".river/tmp/a/link")); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mkfifo(filepath.Join(root, ".river/tmp/a/b/fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	if res := scanRoot(t, root, skill.ScopeTmp, Options{}); res.Dirs != nil {
		t.Errorf("dirs %v without Options.Dirs", res.Dirs)
	}
	res := scanRoot(t, root, skill.ScopeTmp, Options{Dirs: true})
	want := []Dir{{".river/tmp", 3}, {".river/tmp/a", 4}, {".river/tmp/a/b", 3}, {".river/tmp/only-dirs/c", 1}}
	if !slices.Equal(res.Dirs, want) {
		t.Errorf("dirs %v, want %v", res.Dirs, want)
	}
}
