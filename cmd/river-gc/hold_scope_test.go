//go:build linux

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// TestKilledHoldSeenFromAnotherScope: a --force run over every
// scope is SIGKILLed while it holds artifacts/evals/run-1, before it has
// deleted anything there. A later run of scope tmp alone does not scan
// artifacts/evals, yet it must not name the held run's files, all still
// there under the private name, as deleted by the killed run; a --force
// run of every scope then puts them back and deletes them itself.
func TestKilledHoldSeenFromAnotherScope(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	root := memDir(t)
	var before []string
	for i := range 3000 {
		rel := fmt.Sprintf("artifacts/evals/run-1/f%05d.txt", i)
		if i == 0 {
			if err := os.MkdirAll(filepath.Join(root, filepath.Dir(rel)), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(root, rel), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		before = append(before, rel)
	}
	if err := os.MkdirAll(filepath.Join(root, ".river/tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := startHeldIn(t, bin, root, "artifacts/evals", "run-1")
	r.signal(syscall.SIGKILL)
	r.cmd.Wait()
	held := filepath.Join(root, "artifacts/evals", heldPrefix+"run-1")
	var there []string
	for _, p := range before {
		if _, err := os.Lstat(filepath.Join(held, filepath.Base(p))); err == nil {
			there = append(there, p)
		}
	}
	if len(there) == 0 {
		t.Skip("the kill landed after every deletion")
	}
	for _, args := range [][]string{
		{"--json", "--root", root, "--now", future, "--scope", "tmp"},
		{"--json", "--root", root, "--now", future},
	} {
		out, _ := runGC(t, bin, args...)
		rec := readRecord(t, out)
		if rec.Interrupted == nil {
			t.Fatalf("%q: the killed run is not reported", args)
		}
		for _, p := range rec.Interrupted.Removed {
			if slices.Contains(there, p) {
				t.Fatalf("%q: %s is named as deleted by the killed run; it is still there, held (%d named)", args, p, len(rec.Interrupted.Removed))
			}
		}
	}
	out, code := runGC(t, bin, append(forceArgs, "--root", root)...)
	if got := removedPaths(readRecord(t, out)); code != 0 || !slices.Equal(got, there) {
		t.Errorf("the --force run: exit %d, %d removed, want the %d the killed run left", code, len(got), len(there))
	}
}
