package cli

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/npmtest"
)

const now = "2026-01-01T00:00:00Z"

// riverReview is a user's project: the npm packages installed offline
// from their tarballs, and the patched River Review where npm would put
// it (node_modules/river-review), so that gc.mjs resolves
// @plangate-gc/river-gc from upstream's own directory.
type riverReview struct {
	rel    *npmtest.Release
	cli    string // node_modules/river-review/src/cli.mjs
	runner string // node_modules/river-review/runners/cli/bin/river
	shim   string // node_modules/@plangate-gc/river-gc/bin/river-gc.js
}

func install(t *testing.T) riverReview {
	t.Helper()
	// Upstream's copy first: without the snapshot the test skips before
	// it builds and installs the npm packages.
	src := patched(t)
	rel := npmtest.Build(t)
	proj := t.TempDir()
	npmtest.Install(t, rel, proj)
	dst := filepath.Join(proj, "node_modules", "river-review")
	if err := os.Rename(src, dst); err != nil {
		t.Fatal(err)
	}
	return riverReview{rel: rel, cli: filepath.Join(dst, "src", "cli.mjs"), runner: filepath.Join(dst, "runners", "cli", "bin", "river"),
		shim: filepath.Join(proj, "node_modules", "@plangate-gc", "river-gc", "bin", "river-gc.js")}
}

type result struct {
	stdout, stderr []byte
	code           int
}

// river runs `node src/cli.mjs gc args...` in dir; PATH holds only node's
// directory and RIVER_GC_BIN is unset, so the binary can only come from
// the npm package.
func (r riverReview) river(t *testing.T, dir string, args ...string) result {
	o, e, c := npmtest.Run(t, dir, nil, "node", append([]string{r.cli, "gc"}, args...)...)
	return result{o, e, c}
}

// runnerCLI runs `node runners/cli/bin/river gc args...` like river.
func (r riverReview) runnerCLI(t *testing.T, dir string, args ...string) result {
	o, e, c := npmtest.Run(t, dir, nil, "node", append([]string{r.runner, "gc"}, args...)...)
	return result{o, e, c}
}

// direct runs the release binary itself.
func (r riverReview) direct(t *testing.T, dir string, args ...string) result {
	o, e, c := npmtest.Run(t, dir, nil, r.rel.Binary, args...)
	return result{o, e, c}
}

func same(t *testing.T, what string, a, b result, roots ...string) {
	t.Helper()
	a.stdout, b.stdout = npmtest.Stable(a.stdout, roots...), npmtest.Stable(b.stdout, roots...)
	a.stderr, b.stderr = npmtest.Stable(a.stderr, roots...), npmtest.Stable(b.stderr, roots...)
	if !bytes.Equal(a.stdout, b.stdout) || !bytes.Equal(a.stderr, b.stderr) || a.code != b.code {
		t.Errorf("%s: river gc gives exit %d\n%s\n%s\nriver-gc gives exit %d\n%s\n%s",
			what, a.code, a.stdout, a.stderr, b.code, b.stdout, b.stderr)
	}
}

// repo makes a River Review repository with something in every scope:
// old and new files, single sources, a latest symlink and a placeholder.
func repo(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	old := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	recent := time.Date(2025, 12, 20, 0, 0, 0, 0, time.UTC)
	for _, f := range []struct {
		path, body string
		mtime      time.Time
	}{
		{".river/memory/index.json", `{"generatedAt":"2024-01-01T00:00:00Z"}`, old},
		{".river/memory/entries/a.json", `{"metadata":{"createdAt":"2025-02-01T00:00:00Z"}}`, recent},
		{".river/memory/entries/b.json", `{"metadata":{"createdAt":"2025-12-01T00:00:00Z"}}`, old},
		{".river/memory/notes.txt", "old notes", old},
		{"artifacts/evals/run-1/result.json", `{"timestamp":"2025-03-01T00:00:00Z"}`, recent},
		{"artifacts/evals/run-1/log.txt", "log", recent},
		{"artifacts/evals/run-2/result.json", `{"timestamp":"2025-12-30T00:00:00Z"}`, recent},
		{"artifacts/review-artifact-1.json", `{"timestamp":"2025-04-01T00:00:00Z"}`, recent},
		{"artifacts/review-artifact.schema.json", `{}`, old},
		{"artifacts/review-1.md", "# review", old},
		{".river/tmp/x.tmp", "x", old},
		{".river/tmp/.gitkeep", "", old},
	} {
		p := filepath.Join(root, f.path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f.body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, f.mtime, f.mtime); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("run-2", filepath.Join(root, "artifacts/evals/latest")); err != nil {
		t.Fatal(err)
	}
	return root
}

// listing names every file and symlink under root with its size.
func listing(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		fmt.Fprintf(&b, "%s %v %d\n", rel, info.Mode().Type(), info.Size())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestRiverGcIsRiverGcThroughRiverReview: `river gc ARGS`, in both of
// upstream's CLIs, prints what `river-gc ARGS` prints, byte for byte, on
// both streams, with the same exit code, and touches nothing without
// --force.
func TestRiverGcIsRiverGcThroughRiverReview(t *testing.T) {
	t.Parallel()
	rr := install(t)
	root := repo(t)
	before := listing(t, root)
	for _, args := range [][]string{
		{"--help"},
		{"--version"},
		{"--json", "--now", now},
		{"--now", now},
		{"--now", now, "--lang", "ja", "--verbose"},
		{"--json", "--now", now, "--scope", "memory", "--scope", "evals", "--retention-days", "30"},
		{"--json", "--now", now, "--exclude", ".river/memory/entries/**"},
		{"--now", now, "--explain", ".river/memory/entries/b.json", "--explain", "artifacts/evals/run-1/log.txt"},
		{"--emit-inventory", "--now", now},
		{"--force", "--dry-run", "--json", "--now", now},
		{"--scope", "bogus"},
		{"--retention-days", "x"},
		{"--no-such-flag"},
	} {
		want := rr.direct(t, root, args...)
		if args[0] == "--help" {
			// river gc names itself so (RIVER_GC_PROG): its help is
			// river-gc's with that name.
			if !bytes.Contains(want.stdout, []byte("Usage: river-gc [flags]")) {
				t.Fatalf("river-gc --help:\n%s", want.stdout)
			}
			o, e, c := npmtest.Run(t, root, []string{"RIVER_GC_PROG=river gc"}, rr.rel.Binary, args...)
			want = result{o, e, c}
			if !bytes.Contains(want.stdout, []byte("Usage: river gc [flags]")) || bytes.Contains(want.stdout, []byte("river-gc --")) {
				t.Errorf("RIVER_GC_PROG='river gc' river-gc --help:\n%s", want.stdout)
			}
		}
		same(t, strings.Join(args, " "), rr.river(t, root, args...), want)
		same(t, "runners/cli: "+strings.Join(args, " "), rr.runnerCLI(t, root, args...), want)
	}
	if after := listing(t, root); after != before {
		t.Errorf("a run without --force changed the tree:\n%s\nwas\n%s", after, before)
	}
	if r := rr.river(t, root, "--json", "--now", now); !bytes.Contains(r.stdout, []byte(`"path": ".river/memory/entries/a.json"`)) {
		t.Errorf("the fixture removes nothing worth comparing:\n%s", r.stdout)
	}
}

// TestRiverGcForceThroughRiverReview: on twin repositories, `river gc
// --force --json --output-file artifacts/gc-result.json` deletes exactly
// what `river-gc` with the same flags deletes, writes the same result and
// exits with the same code.
func TestRiverGcForceThroughRiverReview(t *testing.T) {
	t.Parallel()
	rr := install(t)
	a, b := repo(t), repo(t)
	args := []string{"--force", "--json", "--output-file", "artifacts/gc-result.json", "--now", now}
	same(t, "--force", rr.river(t, a, args...), rr.direct(t, b, args...), a, b)
	ra, errA := os.ReadFile(filepath.Join(a, "artifacts/gc-result.json"))
	rb, errB := os.ReadFile(filepath.Join(b, "artifacts/gc-result.json"))
	ra, rb = npmtest.Stable(ra, a, b), npmtest.Stable(rb, a, b)
	if errA != nil || errB != nil || !bytes.Equal(ra, rb) {
		t.Errorf("gc-result.json differs (%v, %v):\n%s\nriver-gc:\n%s", errA, errB, ra, rb)
	}
	if !bytes.Contains(ra, []byte(`"mode": "force"`)) || !bytes.Contains(ra, []byte(`"path": ".river/memory/entries/a.json"`)) {
		t.Errorf("the forced run removed nothing worth comparing:\n%s", ra)
	}
	// The records were compared above; their sizes differ with durationMs.
	os.Remove(filepath.Join(a, "artifacts/gc-result.json"))
	os.Remove(filepath.Join(b, "artifacts/gc-result.json"))
	if la, lb := listing(t, a), listing(t, b); la != lb {
		t.Errorf("the trees differ after --force:\nriver gc:\n%s\nriver-gc:\n%s", la, lb)
	}
	if _, err := os.Stat(filepath.Join(a, ".river/memory/entries/a.json")); !os.IsNotExist(err) {
		t.Errorf("river gc --force kept a file it reported removed (%v)", err)
	}
}

// TestExitCodesPassThrough: 0 (clean run), 1 (another --force holds the
// root's lock: the test stands in for it) and 2 (config error) reach
// River Review's caller unchanged, with river-gc's own stderr.
func TestExitCodesPassThrough(t *testing.T) {
	t.Parallel()
	rr := install(t)
	root := repo(t)
	if r := rr.river(t, root, "--now", now); r.code != 0 {
		t.Errorf("dry-run: exit %d, want 0\n%s", r.code, r.stderr)
	}
	if r := rr.river(t, root, "--output-file", "x.json"); r.code != 2 {
		t.Errorf("--output-file without --json: exit %d, want 2\n%s", r.code, r.stderr)
	}
	dir, err := os.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	if err := syscall.Flock(int(dir.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	before := listing(t, root)
	locked := rr.river(t, root, "--force", "--now", now)
	if locked.code != 1 || !bytes.Contains(locked.stderr, []byte("holds the lock")) {
		t.Errorf("--force with the lock held: exit %d, want 1\n%s", locked.code, locked.stderr)
	}
	same(t, "--force with the lock held", locked, rr.direct(t, root, "--force", "--now", now))
	if after := listing(t, root); after != before {
		t.Errorf("a locked-out --force changed the tree")
	}
}

// TestRiverGcWithoutTheBinary: with neither the npm package, RIVER_GC_BIN
// nor river-gc on PATH, `river gc` says how to get it today (a build from
// a clone; no release is published) and exits 2. It runs
// with the PATH of every other test here: so there, the binary came from
// the npm package.
func TestRiverGcWithoutTheBinary(t *testing.T) {
	t.Parallel()
	dir := patched(t)
	root := repo(t)
	o, e, c := npmtest.Run(t, root, nil, "node", filepath.Join(dir, "src/cli.mjs"), "gc", "--force")
	if c != 2 || len(o) != 0 || !bytes.HasPrefix(e, []byte("river gc: river-gc not found. Build it from a clone of https://github.com/plangate-gc/plangate-gc with Go 1.26 (`go build -o ~/.local/bin/river-gc ./cmd/river-gc`)")) ||
		bytes.Contains(e, []byte("npm install")) {
		t.Errorf("exit %d, stdout %q, stderr %q", c, o, e)
	}
}
