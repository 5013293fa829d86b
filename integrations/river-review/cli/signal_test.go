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

	"github.com/plangate-gc/plangate-gc/internal/longtest"
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

// interruptible is a --force run of via (River Review's CLI or the npm
// shim) over a tree of n old files, frozen (SIGSTOP) right after its first
// deletion, so that what the test does next lands mid-run.
type interruptible struct {
	root, result string
	cmd          *exec.Cmd
	child        int // river-gc's pid
	stderr       *strings.Builder
}

const interruptibleFiles = 20000

func startInterruptible(t *testing.T, node string, via []string) *interruptible {
	t.Helper()
	root := t.TempDir()
	old := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range interruptibleFiles {
		p := filepath.Join(root, ".river", "tmp", fmt.Sprintf("d%02d", i%50), fmt.Sprintf("f%05d", i))
		if i < 50 {
			os.MkdirAll(filepath.Dir(p), 0o755)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, old, old)
	}
	r := &interruptible{root: root, result: filepath.Join(t.TempDir(), "gc-result.json"), stderr: &strings.Builder{}}
	r.cmd = exec.Command(node, append(via, "--force", "--json", "--quiet", "--now", now,
		"--output-file", r.result, "--max-entries", "1000000")...)
	r.cmd.Dir = root
	r.cmd.Env = npmtest.Env(t, node)
	r.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	r.cmd.Stderr = r.stderr
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "river-gc to start", func() bool { r.child = childRiverGc(r.cmd.Process.Pid); return r.child != 0 })
	first := filepath.Join(root, ".river/tmp/d00/f00000")
	waitFor(t, "the first deletion", func() bool { _, err := os.Lstat(first); return os.IsNotExist(err) })
	syscall.Kill(r.child, syscall.SIGSTOP)
	waitFor(t, "river-gc to stop", func() bool {
		s := procField(r.child, "State")
		return strings.HasPrefix(s, "T") || strings.HasPrefix(s, "Z") || s == ""
	})
	if !strings.HasPrefix(procField(r.child, "State"), "T") {
		r.cmd.Wait()
		t.Skip("river-gc deleted all 20,000 files before it could be stopped; nothing to interrupt")
	}
	if session(t, r.child) == session(t, r.cmd.Process.Pid) {
		t.Error("river-gc shares its wrapper's session: a terminal's signal would reach it twice")
	}
	return r
}

// checkInterrupted: river-gc wrote a record with one "interrupted" error,
// removed[] lists exactly the files gone, and some are left.
func (r *interruptible) checkInterrupted(t *testing.T) {
	t.Helper()
	var res struct {
		Removed []struct{ Path string }
		Errors  []struct{ Path, Message string }
	}
	b, err := os.ReadFile(r.result)
	if err != nil {
		t.Fatalf("no record: %v\n%s", err, r.stderr.String())
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Message, "interrupted") {
		t.Errorf("errors[] = %+v, want one entry saying the run was interrupted", res.Errors)
	}
	for _, rm := range res.Removed {
		if _, err := os.Lstat(filepath.Join(r.root, rm.Path)); !os.IsNotExist(err) {
			t.Fatalf("removed[] lists %s, which is still there", rm.Path)
		}
	}
	left := 0
	filepath.WalkDir(r.root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			left++
		}
		return nil
	})
	if len(res.Removed)+left != interruptibleFiles || left == 0 {
		t.Errorf("removed[] lists %d, %d files are left, of %d", len(res.Removed), left, interruptibleFiles)
	}
}

// TestSignalsReachRiverGcOnce: SIGINT, SIGTERM, SIGHUP and SIGQUIT sent
// to River Review's process (or the npm shim's), or to its whole process
// group (a terminal's Ctrl-C, Ctrl-\\, a closed terminal), reach river-gc in
// the middle of `river gc --force` exactly as river-gc's own signal
// handling wants them: it finishes the files in hand, writes a record
// listing exactly what was deleted with one "interrupted" error, and the
// wrapper exits 1 only after it. river-gc is frozen (SIGSTOP) while the
// signal is sent and until it is pending for it, so the run cannot end
// first; it runs in a session of its own, so the group's signal reaches
// it only once, through the forwarder (decision 93).
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
		plain  bool // in the plain run; the others need PLANGATE_GC_LONG=1
	}{
		{"SIGTERM to river", []string{rr.cli, "gc"}, syscall.SIGTERM, false, false},
		{"SIGINT to river's process group", []string{rr.cli, "gc"}, syscall.SIGINT, true, false},
		{"SIGHUP to river's process group", []string{rr.cli, "gc"}, syscall.SIGHUP, true, false},
		{"SIGQUIT to river's process group", []string{rr.cli, "gc"}, syscall.SIGQUIT, true, true},
		{"SIGQUIT to runners/cli's river", []string{rr.runner, "gc"}, syscall.SIGQUIT, false, false},
		{"SIGTERM to the npm shim", []string{rr.shim}, syscall.SIGTERM, false, false},
		{"SIGINT to the npm shim's process group", []string{rr.shim}, syscall.SIGINT, true, false},
		{"SIGQUIT to the npm shim", []string{rr.shim}, syscall.SIGQUIT, false, true},
		{"SIGHUP to the npm shim", []string{rr.shim}, syscall.SIGHUP, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !tc.plain {
				longtest.Require(t, "another wrapper or signal (each a 20,000-file run)")
			}
			r := startInterruptible(t, node, tc.via)
			if tc.group {
				syscall.Kill(-r.cmd.Process.Pid, tc.signal)
			} else {
				r.cmd.Process.Signal(tc.signal)
			}
			bit := uint64(1) << (uint(tc.signal) - 1)
			waitFor(t, "the signal to be pending for river-gc", func() bool {
				mask, _ := strconv.ParseUint(procField(r.child, "ShdPnd"), 16, 64)
				return mask&bit != 0
			})
			if s := procField(r.cmd.Process.Pid, "State"); s == "" || strings.HasPrefix(s, "Z") {
				t.Errorf("the wrapper ended (%q) while river-gc was still running", s)
			}
			syscall.Kill(r.child, syscall.SIGCONT)
			err := r.cmd.Wait()
			if code := r.cmd.ProcessState.ExitCode(); code != 1 {
				t.Fatalf("exit %d (%v), want 1\n%s", code, err, r.stderr.String())
			}
			r.checkInterrupted(t)
		})
	}
}

// TestKilledWrapperStopsRiverGc: when River Review's process (or the npm
// shim's) is killed outright, alone or with its whole process group, in
// the middle of `river gc --force`, river-gc (in a session of its own, so
// the group's SIGKILL does not reach it) sees that its parent is gone,
// attempts no further deletion and ends as on SIGTERM: its record lists
// exactly what was deleted, with one "interrupted" error, and files are
// left.
func TestKilledWrapperStopsRiverGc(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds a 20,000-file tree")
	}
	rr := install(t)
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not found")
	}
	for _, tc := range []struct {
		name  string
		via   []string
		group bool
		plain bool // in the plain run; the others need PLANGATE_GC_LONG=1
	}{
		{"SIGKILL of river", []string{rr.cli, "gc"}, false, false},
		{"SIGKILL of river's process group", []string{rr.cli, "gc"}, true, true},
		{"SIGKILL of the npm shim's process group", []string{rr.shim}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !tc.plain {
				longtest.Require(t, "another wrapper or signal (each a 20,000-file run)")
			}
			r := startInterruptible(t, node, tc.via)
			if tc.group {
				syscall.Kill(-r.cmd.Process.Pid, syscall.SIGKILL)
			} else {
				r.cmd.Process.Kill()
			}
			waitFor(t, "the wrapper to die", func() bool {
				s := procField(r.cmd.Process.Pid, "State")
				return s == "" || strings.HasPrefix(s, "Z")
			})
			syscall.Kill(r.child, syscall.SIGCONT)
			// Wait returns once river-gc, holding the wrapper's stderr,
			// has exited too.
			r.cmd.Wait()
			waitFor(t, "river-gc to exit", func() bool { return procField(r.child, "State") == "" })
			r.checkInterrupted(t)
		})
	}
}
