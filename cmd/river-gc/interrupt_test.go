//go:build linux

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// buildBinary builds river-gc once for tests that must signal a real
// process.
func buildBinary(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not available to build river-gc")
	}
	bin := filepath.Join(t.TempDir(), "river-gc")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestSigtermDuringForceThenRerun (SPEC B2): SIGTERM in the middle of a
// --force run leaves a record that lists exactly what was deleted, with
// one errors[] entry saying the run was interrupted; nothing is left under
// a private name; a rerun finishes the job.
func TestSigtermDuringForceThenRerun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 20,000-file tree")
	}
	bin := buildBinary(t)
	root := t.TempDir()
	const n = 20000
	dir := filepath.Join(root, ".river", "tmp")
	old := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		sub := filepath.Join(dir, fmt.Sprintf("d%02d", i%50))
		if i < 50 {
			if err := os.MkdirAll(sub, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		p := filepath.Join(sub, fmt.Sprintf("f%05d", i))
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	before := regularFiles(t, root)
	result := filepath.Join(t.TempDir(), "gc-result.json")
	cmd := exec.Command(bin, "--force", "--json", "--quiet", "--now", "2025-11-29T00:00:00Z", "--output-file", result, "--max-entries", "1000000")
	cmd.Dir = root
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Signal as soon as deletion has visibly begun.
	deadline := time.Now().Add(30 * time.Second)
	for len(regularFiles(t, root)) == n && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	var exit *exec.ExitError
	code := 0
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	after := regularFiles(t, root)
	for _, p := range after {
		if strings.Contains(p, ".river-gc-deleting.") {
			t.Errorf("left under a private name: %s", p)
		}
	}
	var res struct {
		Removed []struct{ Path string }
		Errors  []struct{ Path, Message string }
	}
	b, rerr := os.ReadFile(result)
	if rerr != nil {
		t.Fatalf("no record after SIGTERM (exit %d, stderr %s): %v", code, stderr.String(), rerr)
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, r := range res.Removed {
		listed = append(listed, r.Path)
	}
	slices.Sort(listed)
	gone := slices.DeleteFunc(slices.Clone(before), func(p string) bool { return slices.Contains(after, p) })
	if !slices.Equal(listed, gone) {
		t.Errorf("removed[] lists %d files, %d are gone", len(listed), len(gone))
	}
	switch {
	case code == 0 && len(after) == 0:
		t.Log("the run finished before the signal arrived; interruption not exercised")
	case code == 1:
		if len(res.Errors) != 1 || res.Errors[0].Path != "." || !strings.Contains(res.Errors[0].Message, "interrupted") {
			t.Errorf("errors[] = %+v, want one entry saying the run was interrupted", res.Errors)
		}
		t.Logf("interrupted after %d of %d deletions", len(gone), n)
	default:
		t.Fatalf("exit %d with %d files left; stderr: %s", code, len(after), stderr.String())
	}
	// The rerun finishes the job.
	rerun := exec.Command(bin, "--force", "--quiet", "--now", "2025-11-29T00:00:00Z", "--max-entries", "1000000")
	rerun.Dir = root
	if out, err := rerun.CombinedOutput(); err != nil {
		t.Fatalf("rerun: %v\n%s", err, out)
	}
	if left := regularFiles(t, root); len(left) != 0 {
		t.Errorf("after the rerun %d files are left, e.g. %s", len(left), left[0])
	}
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
