//go:build linux

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSigkillDuringApplyLeavesAnExactRecord (SPEC J2): an apply killed
// with SIGKILL once its intent journal exists has deleted only planned
// files, and exactly the files gone are named — by its own record if it
// got that far, else by the next run's interrupted[]; applying the plan
// again finishes it and leaves the files the plan does not name.
func TestSigkillDuringApplyLeavesAnExactRecord(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("kills real runs")
	}
	bin := buildBinary(t)
	for i := range 3 {
		root := memDir(t)
		planned := oldTree(t, root, 3000, 10)
		planFile := filepath.Join(t.TempDir(), "plan.json")
		if out, err := exec.Command(bin, "--root", root, "--now", future, "--max-entries", "1000000", "--quiet", "--plan-out", planFile).CombinedOutput(); err != nil {
			t.Fatalf("--plan-out: %v\n%s", err, out)
		}
		unplanned := []string{".river/tmp/d00/late-1", ".river/tmp/d05/late-2"}
		writeTree(t, root, map[string]string{unplanned[0]: "x", unplanned[1]: "x"})
		result := filepath.Join(t.TempDir(), "gc.json")
		cmd := exec.Command(bin, "--root", root, "--force", "--json", "--quiet", "--apply", planFile, "--output-file", result)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The event: the first deletions (a directory of the plan holds
		// fewer files than planned, kill i waits for 100·i more), or the
		// run's end; then the kill.
		for {
			es, _ := os.ReadDir(filepath.Join(root, ".river/tmp/d03"))
			if len(es) < 300-100*i {
				break
			}
			if p, _ := os.FindProcess(cmd.Process.Pid); p.Signal(syscall.Signal(0)) != nil {
				break
			}
			time.Sleep(100 * time.Microsecond)
		}
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		there := map[string]bool{}
		for _, p := range regularFiles(t, root) {
			there[strings.Replace(p, "/.river-gc-deleting.", "/", 1)] = true
		}
		for _, p := range unplanned {
			if !there[p] {
				t.Fatalf("kill %d: %s is not in the plan and is gone", i, p)
			}
		}
		gone := slices.DeleteFunc(slices.Clone(planned), func(p string) bool { return there[p] })
		named := map[string]bool{}
		if b, err := os.ReadFile(result); err == nil {
			for _, r := range readRecord(t, b).Removed {
				named[r.Path] = true
			}
		} else if !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		// The next apply names what the killed one deleted, and finishes.
		out, err := exec.Command(bin, "--root", root, "--force", "--json", "--quiet", "--apply", planFile).Output()
		rec := readPlanRecord(t, out)
		next := readRecord(t, out)
		if next.Interrupted != nil {
			for _, p := range next.Interrupted.Removed {
				named[p] = true
			}
		}
		for _, p := range gone {
			if !named[p] {
				t.Fatalf("kill %d: %s is gone (%d of %d) and no record names it", i, p, len(gone), len(planned))
			}
		}
		if len(named) != len(gone) {
			t.Errorf("kill %d: the records name %d deletions, %d files are gone", i, len(named), len(gone))
		}
		if err != nil {
			t.Errorf("kill %d: the apply after the kill: %v\n%s", i, err, out)
		}
		if len(rec.Removed)+len(gone) != len(planned) {
			t.Errorf("kill %d: %d deleted after the kill, %d before, of %d planned", i, len(rec.Removed), len(gone), len(planned))
		}
		if left := regularFiles(t, root); !slices.Equal(left, unplanned) {
			t.Errorf("kill %d: left %d files (%.3q), want only the unplanned ones", i, len(left), left)
		}
		t.Logf("kill %d: %d of %d planned files gone at the kill", i, len(gone), len(planned))
	}
}
