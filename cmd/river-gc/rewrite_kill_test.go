//go:build linux

package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/backend/local/rewrite"
)

// tempRecord is the part of a JSON record the rewrite kill tests read.
type tempRecord struct {
	Removed     []struct{ Path string }
	Interrupted *struct {
		Journals, Rewritten, Temps []string
	}
}

// runRecord runs bin with args and parses its JSON record; an exit
// status other than 0 or 1 fails the test.
func runRecord(t *testing.T, bin string, args ...string) tempRecord {
	t.Helper()
	out, err := exec.Command(bin, args...).Output()
	var exit *exec.ExitError
	if err != nil && (!errors.As(err, &exit) || exit.ExitCode() != 1) {
		t.Fatalf("river-gc %v: %v", args, err)
	}
	var r tempRecord
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("not a JSON record: %v\n%.400s", err, out)
	}
	return r
}

// tempsIn lists the names in dir that start with rewrite.TempPrefix.
func tempsIn(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, rewrite.TempPrefix+"*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSigkilledRewriteLeavesNoUnrecordedCopy (SPEC B2, B4, D5; decision
// 223): a real --force run rewriting the memory index is SIGKILLed by
// strace at the first fsync (the new copy's, still unnamed) and, in a
// second case, at the rename over the index (the copy linked under its
// temporary name, journaled). At the fsync nothing is left and the index
// is as it was; at the rename the next dry-run names the copy under
// interrupted.temps and does not count it in the memory scope, and the
// next --force run removes it, rewrites the index and leaves no journal.
func TestSigkilledRewriteLeavesNoUnrecordedCopy(t *testing.T) {
	t.Parallel()
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("strace is not installed (apt-get install strace enables this test)")
	}
	bin := buildBinary(t)
	for _, at := range []string{"fsync", "rename,renameat,renameat2"} {
		t.Run(strings.SplitN(at, ",", 2)[0], func(t *testing.T) {

			root := t.TempDir()
			dir := filepath.Join(root, ".river/memory")
			index := filepath.Join(dir, "index.json")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(index, []byte(oldIndex), 0o644); err != nil {
				t.Fatal(err)
			}
			args := append(slices.Clone(forceArgs), "--root", root, "--scope", "memory-entries")
			cmd := exec.Command(strace, append([]string{"-f", "-qq", "-o", "/dev/null", "-e", "trace=" + at,
				"-e", "inject=" + at + ":signal=SIGKILL:when=1", bin}, args...)...)
			err := cmd.Run()
			var exit *exec.ExitError
			// strace ends as its tracee did: killed, or exit 137.
			if !errors.As(err, &exit) || (exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL && exit.ExitCode() != 128+int(syscall.SIGKILL)) {
				t.Fatalf("river-gc under strace was not killed: %v", err)
			}
			if got, _ := os.ReadFile(index); string(got) != oldIndex {
				t.Fatalf("the index changed before the rename:\n%s", got)
			}
			left := tempsIn(t, dir)
			if at == "fsync" {
				if len(left) != 0 {
					t.Errorf("a kill before the copy was named left %v", left)
				}
				return
			}
			if len(left) != 1 {
				t.Fatalf("a kill at the rename left %v, want one copy", left)
			}
			rel, _ := filepath.Rel(root, left[0])
			dry := runRecord(t, bin, "--json", "--quiet", "--now", future, "--root", root, "--scope", "memory", "--scope", "memory-entries")
			if dry.Interrupted == nil || !slices.Equal(dry.Interrupted.Temps, []string{rel}) {
				t.Errorf("the dry-run's interrupted %+v does not name %s", dry.Interrupted, rel)
			}
			for _, r := range dry.Removed {
				if r.Path == rel {
					t.Errorf("the dry-run judges the copy as a memory artifact: %+v", dry.Removed)
				}
			}
			force := runRecord(t, bin, append(slices.Clone(forceArgs), "--root", root, "--scope", "memory", "--scope", "memory-entries")...)
			if force.Interrupted == nil || !slices.Equal(force.Interrupted.Temps, []string{rel}) {
				t.Errorf("the --force run's interrupted %+v does not name %s", force.Interrupted, rel)
			}
			if l := tempsIn(t, dir); len(l) != 0 {
				t.Errorf("left after the --force run: %v", l)
			}
			if got, _ := os.ReadFile(index); strings.Contains(string(got), `"rev"`) || !strings.Contains(string(got), `"dec"`) {
				t.Errorf("the index after the --force run:\n%s", got)
			}
			if _, err := os.Lstat(filepath.Join(root, ".river/gc-journal")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("journal left: %v", err)
			}
		})
	}
}

// TestUserFileWithOurTempNameIsKept (decision 223): a file that merely
// has a rewrite's temporary name, named by no journal, is neither counted
// in its scope nor deleted, however old.
func TestUserFileWithOurTempNameIsKept(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	root := t.TempDir()
	p := filepath.Join(root, ".river/memory", rewrite.TempPrefix+"index.json.1.1")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := runRecord(t, bin, append(slices.Clone(forceArgs), "--root", root, "--scope", "memory")...)
	if len(rec.Removed) != 0 || rec.Interrupted != nil {
		t.Errorf("removed %+v, interrupted %+v", rec.Removed, rec.Interrupted)
	}
	if b, err := os.ReadFile(p); err != nil || string(b) != "mine" {
		t.Errorf("the user's file: %q, %v", b, err)
	}
}
