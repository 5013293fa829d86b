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

	"github.com/plangate-gc/plangate-gc/internal/longtest"
	"github.com/plangate-gc/plangate-gc/internal/testbin"
)

// buildBinary returns river-gc built for tests that must signal a real
// process: one build shared by every test process (internal/testbin).
// The build is plain, so -race looks at none of what such a test runs:
// under -race it is skipped unless PLANGATE_GC_LONG is set (CI's -race
// run sets it; go test without -race always runs it), decision 382.
func buildBinary(t *testing.T) string {
	t.Helper()
	if raceBuild && !longtest.Enabled() {
		t.Skip("runs the plain river-gc binary, which -race does not instrument: go test without -race runs it, and so does -race with " + longtest.Env + "=1 (CI)")
	}
	return testbin.Build(t, testbin.RiverGC)
}

// TestStopSignalsDuringForceThenRerun (SPEC B2, B4): SIGINT, SIGTERM,
// SIGHUP and SIGQUIT in the middle of a --force run each leave a record
// that lists exactly what was deleted, with one errors[] entry saying the
// run was interrupted, and exit 1; nothing is left under a private name;
// a rerun finishes the job. The run is stopped (SIGSTOP) as soon as its
// first deletion shows, signalled, and continued, so the signal always
// lands during the deletions.
func TestStopSignalsDuringForceThenRerun(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds four 5,000-file trees")
	}
	bin := buildBinary(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT} {
		t.Run(sig.String(), func(t *testing.T) {
			root := memDir(t)
			before := oldTree(t, root, 5000, 50)
			result := filepath.Join(t.TempDir(), "gc-result.json")
			code, stderr := stopDuringDeletion(t, bin, root, result, sig)
			after := regularFiles(t, root)
			for _, p := range after {
				if strings.Contains(p, ".river-gc-deleting.") {
					t.Errorf("left under a private name: %s", p)
				}
			}
			b, rerr := os.ReadFile(result)
			if rerr != nil {
				t.Fatalf("no record after %v (exit %d, stderr %s): %v", sig, code, stderr, rerr)
			}
			res := readRecord(t, b)
			var listed []string
			for _, r := range res.Removed {
				listed = append(listed, r.Path)
			}
			slices.Sort(listed)
			gone := slices.DeleteFunc(slices.Clone(before), func(p string) bool { return slices.Contains(after, p) })
			if !slices.Equal(listed, gone) {
				t.Errorf("removed[] lists %d files, %d are gone", len(listed), len(gone))
			}
			if code != 1 || len(after) == 0 {
				t.Fatalf("exit %d with %d files left; want exit 1 with files left; stderr: %s", code, len(after), stderr)
			}
			if len(res.Errors) != 1 || res.Errors[0].Path != "." || !strings.Contains(res.Errors[0].Message, "interrupted") {
				t.Errorf("errors[] = %+v, want one entry saying the run was interrupted", res.Errors)
			}
			// The rerun finishes the job.
			rerun := exec.Command(bin, append(forceArgs, "--root", root)...)
			if out, err := rerun.CombinedOutput(); err != nil {
				t.Fatalf("rerun: %v\n%s", err, out)
			}
			if left := regularFiles(t, root); len(left) != 0 {
				t.Errorf("after the rerun %d files are left, e.g. %s", len(left), left[0])
			}
		})
	}
}

// TestSecondSignalExitsOneAndTheJournalNamesTheDeletions: two stop
// signals at once (one stop since decision 242; a later second one ends
// the run at once) end a --force run with exit 1 (never 2, nor a
// signal's death), and whatever it deleted is named by its record or by
// the next run's interrupted list.
func TestSecondSignalExitsOneAndTheJournalNamesTheDeletions(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	root := memDir(t)
	before := oldTree(t, root, 5000, 50)
	result := filepath.Join(t.TempDir(), "gc.json")
	code, stderr := stopDuringDeletion(t, bin, root, result, syscall.SIGHUP, syscall.SIGTERM)
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr %s", code, stderr)
	}
	named := map[string]bool{}
	if b, err := os.ReadFile(result); err == nil {
		for _, r := range readRecord(t, b).Removed {
			named[r.Path] = true
		}
	}
	next := exec.Command(bin, "--json", "--quiet", "--root", root, "--now", future, "--max-entries", "1000000")
	b, _ := next.Output()
	if in := readRecord(t, b).Interrupted; in != nil {
		for _, p := range in.Removed {
			named[p] = true
		}
	}
	there := map[string]bool{}
	for _, p := range regularFiles(t, root) {
		there[strings.Replace(p, "/.river-gc-deleting.", "/", 1)] = true
	}
	for _, p := range before {
		if !there[p] && !named[p] {
			t.Fatalf("%s is gone and no record names it", p)
		}
	}
}

// stopDuringDeletion runs river-gc --force on root, stops it as soon as
// its first file is gone, sends sigs, continues it and waits; it returns
// the exit code and stderr.
func stopDuringDeletion(t *testing.T, bin, root, result string, sigs ...syscall.Signal) (int, string) {
	t.Helper()
	return stopDuringDeletionWith(t, bin, root, result, nil, sigs...)
}

// stopDuringDeletionWith is stopDuringDeletion with extra flags. The stop
// is an event: the run is stopped by strace the moment it holds
// .river/tmp/d00, the first directory it deletes (startStopped), so the
// signals always land during the deletions, however loaded the machine.
func stopDuringDeletionWith(t *testing.T, bin, root, result string, extra []string, sigs ...syscall.Signal) (int, string) {
	t.Helper()
	r := startStopped(t, bin, root, ".river/tmp", "d00", "1+", extra...)
	for _, s := range sigs {
		r.signal(s)
	}
	code := r.wait(t)
	if b, err := os.ReadFile(r.result); err == nil {
		if err := os.WriteFile(result, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return code, r.stderr.String()
}

// regularFiles lists the regular files below root, root-relative, sorted.
func regularFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(out)
	return out
}
