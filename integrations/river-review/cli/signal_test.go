//go:build linux

package cli

import (
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/longtest"
	"github.com/plangate-gc/plangate-gc/internal/npmtest"
)

// TestSignalsReachRiverGcOnce: SIGINT, SIGTERM, SIGHUP and SIGQUIT sent
// to River Review's process (or the npm shim's), or to its whole process
// group (a terminal's Ctrl-C, Ctrl-\\, a closed terminal), reach river-gc in
// the middle of `river gc --force` exactly as river-gc's own signal
// handling wants them: it finishes the files in hand, writes a record
// listing exactly what was deleted with one "interrupted" error, and the
// wrapper exits 1 only after it. river-gc is frozen (SIGSTOP) while the
// signal is sent and until it is pending for it, so the run cannot end
// first; it runs in a session of its own, so the group's signal reaches
// it only once, through the forwarder (decision 93); one more copy sent
// to river-gc right after it runs again changes nothing (decision 242).
func TestSignalsReachRiverGcOnce(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: builds a 20,000-file tree (run without -short)")
	}
	rr := install(t)
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not found: put Node 20 or 22 on PATH to run it")
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
			r := npmtest.StartInterruptible(t, node, "", append([]string{node}, tc.via...), now)
			if tc.group {
				syscall.Kill(-r.Cmd.Process.Pid, tc.signal)
			} else {
				r.Cmd.Process.Signal(tc.signal)
			}
			bit := uint64(1) << (uint(tc.signal) - 1)
			npmtest.WaitFor(t, "the signal to be pending for river-gc", func() bool {
				mask, _ := strconv.ParseUint(npmtest.ProcField(r.Child, "ShdPnd"), 16, 64)
				return mask&bit != 0
			})
			if s := npmtest.ProcField(r.Cmd.Process.Pid, "State"); s == "" || strings.HasPrefix(s, "Z") {
				t.Errorf("the wrapper ended (%q) while river-gc was still running", s)
			}
			syscall.Kill(r.Child, syscall.SIGCONT)
			// A copy passed on late by a wrapper (a group's signal reaches
			// every node process of the chain) is the same stop, never an
			// exit without the record (decision 242).
			syscall.Kill(r.Child, tc.signal)
			err := r.Cmd.Wait()
			if code := r.Cmd.ProcessState.ExitCode(); code != 1 {
				t.Fatalf("exit %d (%v), want 1\n%s", code, err, r.Stderr.String())
			}
			r.CheckInterrupted(t)
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
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: builds a 20,000-file tree (run without -short)")
	}
	rr := install(t)
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not found: put Node 20 or 22 on PATH to run it")
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
			r := npmtest.StartInterruptible(t, node, "", append([]string{node}, tc.via...), now)
			if tc.group {
				syscall.Kill(-r.Cmd.Process.Pid, syscall.SIGKILL)
			} else {
				r.Cmd.Process.Kill()
			}
			npmtest.WaitFor(t, "the wrapper to die", func() bool {
				s := npmtest.ProcField(r.Cmd.Process.Pid, "State")
				return s == "" || strings.HasPrefix(s, "Z")
			})
			syscall.Kill(r.Child, syscall.SIGCONT)
			// Wait returns once river-gc, holding the wrapper's stderr,
			// has exited too.
			r.Cmd.Wait()
			npmtest.WaitFor(t, "river-gc to exit", func() bool { return npmtest.ProcField(r.Child, "State") == "" })
			r.CheckInterrupted(t)
		})
	}
}
