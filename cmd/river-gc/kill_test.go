//go:build linux

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// gcRecord is the part of a JSON record the record tests read.
type gcRecord struct {
	Removed []struct{ Path string }
	Errors  []struct{ Path, Message string }
	// Interrupted is SPEC B4's report of what killed runs deleted.
	Interrupted *struct {
		Journals []string
		Removed  []string
		Finished bool
	}
}

// readRecord parses a JSON record.
func readRecord(t *testing.T, b []byte) gcRecord {
	t.Helper()
	var r gcRecord
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("not a JSON record: %v\n%.400s", err, b)
	}
	return r
}

// oldTree writes n files under .river/tmp in dirs directories, all
// removable at forceArgs' --now, and returns their root-relative paths.
func oldTree(t *testing.T, root string, n, dirs int) []string {
	t.Helper()
	var paths []string
	for i := range n {
		rel := fmt.Sprintf(".river/tmp/d%02d/f%05d", i%dirs, i)
		p := filepath.Join(root, rel)
		if i < dirs {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, rel)
	}
	slices.Sort(paths)
	return paths
}

// memDir is a fresh directory on /dev/shm when that is a tmpfs (file
// creation there costs no disk; the kill test makes 50,000 files), else
// t.TempDir.
func memDir(t *testing.T) string {
	t.Helper()
	var fs syscall.Statfs_t
	if syscall.Statfs("/dev/shm", &fs) != nil || fs.Type != 0x01021994 { // TMPFS_MAGIC
		return t.TempDir()
	}
	d, err := os.MkdirTemp("/dev/shm", "river-gc-kill-")
	if err != nil {
		return t.TempDir()
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

// forceArgs are the flags of every --force run of these tests.
// --now lies far enough ahead that every file of oldTree is past the age
// limit.
var forceArgs = []string{"--force", "--json", "--quiet", "--now", future, "--max-entries", "1000000"}

// future is the --now of these tests.
const future = "2200-01-01T00:00:00Z"

// sigkillAtAnyMomentLeavesARecord (SPEC B4, the kill test): a real
// river-gc --force on a tree of 2,500 removable files is killed with
// SIGKILL at random moments of its run; afterwards every file that is
// gone is named in some record — the killed run's own JSON, if it got
// that far, or the next run's interrupted.removed, read from the intent
// journal. The next --force run reports the same and removes the journal.
func sigkillAtAnyMomentLeavesARecord(t *testing.T) {
	if testing.Short() {
		t.Skip("kills 20 real runs")
	}
	bin := buildBinary(t)
	const n, runs = 2500, 20
	// One run to completion measures how long a run lasts.
	root := memDir(t)
	oldTree(t, root, n, 10)
	start := time.Now()
	full := exec.Command(bin, append(forceArgs, "--root", root)...)
	out, err := full.Output()
	length := time.Since(start)
	if err != nil || len(readRecord(t, out).Removed) != n {
		t.Fatalf("uninterrupted run: %v, %d removed", err, len(readRecord(t, out).Removed))
	}
	rng := rand.New(rand.NewPCG(15, 8)) // fixed: the same moments every time
	midway := 0
	for i := range runs {
		root := memDir(t)
		before := oldTree(t, root, n, 10)
		result := filepath.Join(t.TempDir(), "gc.json")
		cmd := exec.Command(bin, append(forceArgs, "--root", root, "--output-file", result)...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Int64N(int64(length) + 1)))
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		// A file the kill caught under its private name is still there
		// (the next --force run puts it back), not gone.
		there := map[string]bool{}
		for _, p := range regularFiles(t, root) {
			there[strings.Replace(p, "/.river-gc-deleting.", "/", 1)] = true
		}
		gone := slices.DeleteFunc(slices.Clone(before), func(p string) bool { return there[p] })
		if len(gone) > 0 && len(gone) < n {
			midway++
		}
		named := map[string]bool{}
		if b, err := os.ReadFile(result); err == nil {
			for _, r := range readRecord(t, b).Removed {
				named[r.Path] = true
			}
		}
		// The next run, a dry-run, reads the killed run's journal.
		dry := exec.Command(bin, "--json", "--quiet", "--root", root, "--now", future, "--max-entries", "1000000")
		b, _ := dry.Output()
		dryRec := readRecord(t, b)
		if dryRec.Interrupted != nil {
			for _, p := range dryRec.Interrupted.Removed {
				named[p] = true
			}
		}
		for _, p := range gone {
			if !named[p] {
				t.Fatalf("run %d: %s is gone (%d of %d gone) and no record names it", i, p, len(gone), n)
			}
		}
		// Then a --force run reports it too, finishes the job and removes
		// the journal.
		force := exec.Command(bin, append(forceArgs, "--root", root)...)
		b, err := force.Output()
		if err != nil {
			t.Fatalf("run %d: the --force run after the kill: %v", i, err)
		}
		rec := readRecord(t, b)
		if dryRec.Interrupted != nil && (rec.Interrupted == nil || !slices.Equal(rec.Interrupted.Removed, dryRec.Interrupted.Removed)) {
			t.Errorf("run %d: the --force run reports %+v, the dry-run %+v", i, rec.Interrupted, dryRec.Interrupted)
		}
		for _, j := range []string{".river/gc-journal", "artifacts/.river-gc-journal"} {
			if _, err := os.Lstat(filepath.Join(root, j)); err == nil {
				t.Errorf("run %d: %s left after a --force run that wrote its record", i, j)
			}
		}
		if left := regularFiles(t, root); len(left) != 0 {
			t.Errorf("run %d: %d files left, e.g. %s", i, len(left), left[0])
		}
	}
	if midway == 0 {
		t.Skipf("no kill landed during the deletions (run length %v): nothing was exercised", length)
	}
	t.Logf("%d of %d kills landed during the deletions (run length %v)", midway, runs, length)
}

// TestRecordSurvivesABrokenStderr (SPEC B4): with stderr a closed pipe
// (`2>&1 | head`) or /dev/full, a --force run still writes its JSON
// record, lists every deletion in it, and exits 1 for the failed writes
// (never 141 from SIGPIPE, never 2).
func TestRecordSurvivesABrokenStderr(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	for _, name := range []string{"closed-pipe", "dev-full"} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			before := oldTree(t, root, 300, 3)
			result := filepath.Join(t.TempDir(), "gc.json")
			cmd := exec.Command(bin, "--force", "--json", "--output-file", result, "--debug", "--root", root, "--now", future)
			switch name {
			case "closed-pipe":
				r, w, err := os.Pipe()
				if err != nil {
					t.Fatal(err)
				}
				r.Close()
				defer w.Close()
				cmd.Stderr = w
			case "dev-full":
				f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
				if err != nil {
					t.Skipf("no /dev/full: %v", err)
				}
				defer f.Close()
				cmd.Stderr = f
			}
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 1 {
				t.Errorf("exit: %v, want exit status 1", err)
			}
			b, rerr := os.ReadFile(result)
			if rerr != nil {
				t.Fatalf("no JSON record: %v", rerr)
			}
			var listed []string
			for _, r := range readRecord(t, b).Removed {
				listed = append(listed, r.Path)
			}
			if !slices.Equal(listed, before) || len(regularFiles(t, root)) != 0 {
				t.Errorf("the record lists %d of the %d deleted files", len(listed), len(before))
			}
		})
	}
}

// TestRecordSurvivesAClosedStdout: the JSON on stdout into a closed pipe
// is lost, so the intent journal is kept and the next run names every
// deletion of this one.
func TestRecordSurvivesAClosedStdout(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	root := t.TempDir()
	before := oldTree(t, root, 300, 3)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	cmd := exec.Command(bin, append(forceArgs, "--root", root)...)
	cmd.Stdout = w
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err = cmd.Run()
	w.Close()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(stderr.String(), "intent journal is kept") {
		t.Errorf("exit: %v, stderr %q; want exit 1 saying the journal is kept", err, stderr.String())
	}
	next := exec.Command(bin, append(forceArgs, "--root", root)...)
	b, err := next.Output()
	if err != nil {
		t.Fatal(err)
	}
	rec := readRecord(t, b)
	if rec.Interrupted == nil || !slices.Equal(rec.Interrupted.Removed, before) || !rec.Interrupted.Finished {
		t.Errorf("the next run reports %+v; want all %d files, finished", rec.Interrupted, len(before))
	}
}
