//go:build linux

package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/npmtest"
)

// procField returns the value of a "Name:\tvalue" line of /proc/pid/status.
func procField(pid int, name string) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, name+":"); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// session returns the session id of pid (/proc/pid/stat field 6).
func session(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	sid, _ := strconv.Atoi(f[3])
	return sid
}

// childRiverGc returns the pid of the river-gc that node (pid) started.
func childRiverGc(pid int) int {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	for _, f := range tasks {
		b, _ := os.ReadFile(f)
		for _, c := range strings.Fields(string(b)) {
			cpid, _ := strconv.Atoi(c)
			if comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", cpid)); string(comm) == "river-gc\n" {
				return cpid
			}
		}
	}
	return 0
}

// waitFor polls cond; the deadline only stops a hung test.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
	}
}

// TestSignalsReachRiverGcOnce: a SIGTERM to River Review's process (or the
// npm shim's), and a SIGINT to its whole process group (a terminal's
// Ctrl-C), reach river-gc
// in the middle of `river gc --force` exactly as river-gc's own signal
// handling wants them: it finishes the files in hand, writes a record
// listing exactly what was deleted with one "interrupted" error, and River
// Review exits 1. river-gc is frozen (SIGSTOP) while the signal is sent
// and until it is pending for it, so the run cannot end first; it runs in
// a session of its own, so the group's SIGINT reaches it only once,
// through the forwarder (decision 93).
func TestSignalsReachRiverGcOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds a 20,000-file tree")
	}
	rr := install(t)
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not found")
	}
	for _, tc := range []struct {
		name   string
		via    []string
		signal syscall.Signal
		group  bool
	}{
		{"SIGTERM to river", []string{rr.cli, "gc"}, syscall.SIGTERM, false},
		{"SIGINT to river's process group", []string{rr.cli, "gc"}, syscall.SIGINT, true},
		{"SIGTERM to the npm shim", []string{rr.shim}, syscall.SIGTERM, false},
		{"SIGINT to the npm shim's process group", []string{rr.shim}, syscall.SIGINT, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			const n = 20000
			old := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
			for i := range n {
				p := filepath.Join(root, ".river", "tmp", fmt.Sprintf("d%02d", i%50), fmt.Sprintf("f%05d", i))
				if i < 50 {
					os.MkdirAll(filepath.Dir(p), 0o755)
				}
				if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
				os.Chtimes(p, old, old)
			}
			result := filepath.Join(t.TempDir(), "gc-result.json")
			cmd := exec.Command(node, append(tc.via, "--force", "--json", "--quiet", "--now", now,
				"--output-file", result, "--max-entries", "1000000")...)
			cmd.Dir = root
			cmd.Env = npmtest.Env(t, node)
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var child int
			waitFor(t, "river-gc to start", func() bool { child = childRiverGc(cmd.Process.Pid); return child != 0 })
			first := filepath.Join(root, ".river/tmp/d00/f00000")
			waitFor(t, "the first deletion", func() bool { _, err := os.Lstat(first); return os.IsNotExist(err) })
			syscall.Kill(child, syscall.SIGSTOP)
			waitFor(t, "river-gc to stop", func() bool {
				s := procField(child, "State")
				return strings.HasPrefix(s, "T") || strings.HasPrefix(s, "Z") || s == ""
			})
			if !strings.HasPrefix(procField(child, "State"), "T") {
				cmd.Wait()
				t.Skip("river-gc deleted all 20,000 files before it could be stopped; nothing to interrupt")
			}
			if session(t, child) == session(t, cmd.Process.Pid) {
				t.Error("river-gc shares River Review's session: a terminal's signal would reach it twice")
			}
			if tc.group {
				syscall.Kill(-cmd.Process.Pid, tc.signal)
			} else {
				cmd.Process.Signal(tc.signal)
			}
			bit := uint64(1) << (uint(tc.signal) - 1)
			waitFor(t, "the signal to be pending for river-gc", func() bool {
				mask, _ := strconv.ParseUint(procField(child, "ShdPnd"), 16, 64)
				return mask&bit != 0
			})
			syscall.Kill(child, syscall.SIGCONT)
			err := cmd.Wait()
			if code := cmd.ProcessState.ExitCode(); code != 1 {
				t.Fatalf("exit %d (%v), want 1\n%s", code, err, stderr.String())
			}
			var res struct {
				Removed []struct{ Path string }
				Errors  []struct{ Path, Message string }
			}
			b, err := os.ReadFile(result)
			if err != nil {
				t.Fatalf("no record: %v\n%s", err, stderr.String())
			}
			if err := json.Unmarshal(b, &res); err != nil {
				t.Fatal(err)
			}
			if len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Message, "interrupted") {
				t.Errorf("errors[] = %+v, want one entry saying the run was interrupted", res.Errors)
			}
			for _, r := range res.Removed {
				if _, err := os.Lstat(filepath.Join(root, r.Path)); !os.IsNotExist(err) {
					t.Fatalf("removed[] lists %s, which is still there", r.Path)
				}
			}
			left := 0
			filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
				if err == nil && d.Type().IsRegular() {
					left++
				}
				return nil
			})
			if len(res.Removed)+left != n || left == 0 {
				t.Errorf("removed[] lists %d, %d files are left, of %d", len(res.Removed), left, n)
			}
		})
	}
}
