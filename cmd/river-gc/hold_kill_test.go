//go:build linux

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestKilledWhileHoldingThenNameRetaken: a --force run is
// SIGKILLed while it holds .river/tmp/big; before the next run a writer
// makes .river/tmp/big again (mkdir -p, writeFile). A dry-run names
// exactly the files the killed run deleted and calls the held directory
// a leftover; the next --force run reports the same, puts every file the
// killed run left back at its own path (into the new directory), deletes
// them as the killed run would have, keeps the writer's file, leaves no
// private name and no journal, and exits 0.
func TestKilledWhileHoldingThenNameRetaken(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	root := memDir(t)
	before := heldTree(t, root, "big", 4000)
	r := startHeld(t, bin, root, "big")
	r.signal(syscall.SIGKILL)
	r.cmd.Wait()
	var gone []string
	for _, p := range before {
		held := strings.Replace(p, "/big/", "/"+heldPrefix+"big/", 1)
		if _, err := os.Lstat(filepath.Join(root, held)); err != nil {
			gone = append(gone, p)
		}
	}
	if len(gone) == len(before) {
		t.Skip("the kill landed after every deletion: nothing held is left to restore")
	}
	dry, code := runGC(t, bin, "--json", "--root", root, "--now", future, "--max-entries", "1000000")
	dryRec := readRecord(t, dry)
	if code != 0 || dryRec.Interrupted == nil || !slices.Equal(dryRec.Interrupted.Removed, gone) {
		t.Fatalf("dry-run: exit %d, interrupted %+v; want exactly the %d files gone", code, dryRec.Interrupted, len(gone))
	}
	if !slices.Contains(warningKinds(t, dry), "leftover") {
		t.Errorf("the dry-run does not call the held directory a leftover: %.600s", dry)
	}
	fresh := filepath.Join(root, ".river/tmp/big/new.json")
	if err := os.MkdirAll(filepath.Dir(fresh), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(fresh, []byte(`{"timestamp":"2199-12-31T00:00:00Z"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := runGC(t, bin, append(forceArgs, "--root", root)...)
	rec := readRecord(t, out)
	if code != 0 || len(rec.Errors) != 0 {
		t.Errorf("the --force run after the kill: exit %d, errors %+v", code, rec.Errors)
	}
	if rec.Interrupted == nil || !slices.Equal(rec.Interrupted.Removed, gone) {
		t.Errorf("the --force run reports %+v as interrupted, want the %d gone", rec.Interrupted, len(gone))
	}
	rest := slices.DeleteFunc(slices.Clone(before), func(p string) bool { return slices.Contains(gone, p) })
	if got := removedPaths(rec); !slices.Equal(got, rest) {
		t.Errorf("removed[] lists %d files, want the %d the killed run left", len(got), len(rest))
	}
	if left := regularFiles(t, root); !slices.Equal(left, []string{".river/tmp/big/new.json"}) {
		t.Errorf("left: %d files, e.g. %q; want the writer's only", len(left), left[:min(len(left), 3)])
	}
	if _, err := os.Lstat(filepath.Join(root, ".river/gc-journal")); err == nil {
		t.Error("the journal is still there")
	}
}

// TestDryRunBesideAHoldingForce (SPEC B4 "truthful words"): a
// dry-run while a --force run holds .river/tmp/big does not call the
// held directory a leftover of an interrupted run, nor report the live
// run's journal as a killed run's.
func TestDryRunBesideAHoldingForce(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	root := memDir(t)
	heldTree(t, root, "big", 4000)
	r := startHeld(t, bin, root, "big")
	dry := exec.Command(bin, "--json", "--root", root, "--now", future, "--max-entries", "1000000")
	var stderr strings.Builder
	dry.Stderr = &stderr
	out, _ := dry.Output()
	rec := readRecord(t, out)
	if slices.Contains(warningKinds(t, out), "leftover") || rec.Interrupted != nil {
		t.Errorf("the dry-run beside a live --force: interrupted %+v; record %.800s", rec.Interrupted, out)
	}
	if strings.Contains(stderr.String(), "interrupted run") && !strings.Contains(stderr.String(), "not leftovers") {
		t.Errorf("the dry-run's summary calls the live run's hold a leftover:\n%s", stderr.String())
	}
	if code, _ := r.finish(t); code != 0 {
		t.Errorf("the --force run: exit %d; stderr %s", code, r.stderr)
	}
}

// warningKinds lists the kinds of a JSON record's warnings[].
func warningKinds(t *testing.T, b []byte) []string {
	t.Helper()
	var r struct{ Warnings []struct{ Kind string } }
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, w := range r.Warnings {
		out = append(out, w.Kind)
	}
	return out
}

// killedMidHoldNamesExactlyTheGone: a --force run is
// stopped once it holds .river/tmp/big, continued, and SIGKILLed a
// moment later (fixed moments: none, then 100 µs steps), so the kill
// lands before, among and after the deletions in the held directory.
// Each time the next dry-run names in interrupted.removed exactly the
// files that are gone — none still in the held directory — and the next
// --force run removes the rest and leaves nothing under a private name.
func killedMidHoldNamesExactlyTheGone(t *testing.T) {
	bin := buildBinary(t)
	midway := 0
	for i := range 8 {
		root := memDir(t)
		before := heldTree(t, root, "big", 3000)
		r := startHeld(t, bin, root, "big")
		r.signal(syscall.SIGCONT)
		time.Sleep(time.Duration(i) * 100 * time.Microsecond)
		r.signal(syscall.SIGKILL)
		r.cmd.Wait()
		there := map[string]bool{}
		for _, p := range regularFiles(t, root) {
			there[strings.Replace(p, "/"+heldPrefix, "/", 1)] = true
		}
		gone := slices.DeleteFunc(slices.Clone(before), func(p string) bool { return there[p] })
		if len(gone) > 0 && len(gone) < len(before) {
			midway++
		}
		named := map[string]bool{}
		if b, err := os.ReadFile(r.result); err == nil {
			for _, p := range removedPaths(readRecord(t, b)) {
				named[p] = true
			}
		}
		dry, _ := runGC(t, bin, "--json", "--root", root, "--now", future, "--max-entries", "1000000")
		var interrupted []string
		if rec := readRecord(t, dry); rec.Interrupted != nil {
			interrupted = rec.Interrupted.Removed
		}
		for _, p := range gone {
			if !named[p] && !slices.Contains(interrupted, p) {
				t.Fatalf("kill %d: %s is gone and no record names it", i, p)
			}
		}
		for _, p := range interrupted {
			if there[p] {
				t.Fatalf("kill %d: %s is named as deleted by the killed run but is still there", i, p)
			}
		}
		out, code := runGC(t, bin, append(forceArgs, "--root", root)...)
		if left := regularFiles(t, root); code != 0 || len(left) != 0 || len(privateNames(root)) != 0 {
			t.Fatalf("kill %d: the next --force: exit %d, %d files left, private names %q; %.300s", i, code, len(left), privateNames(root), out)
		}
	}
	if midway == 0 {
		t.Skip("no kill landed among the held directory's deletions: nothing was exercised")
	}
}
