//go:build linux

package npmtest

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ProcField returns the value of a "Name:\tvalue" line of /proc/pid/status.
func ProcField(pid int, name string) string {
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

// Session returns the session id of pid (/proc/pid/stat field 6).
func Session(t testing.TB, pid int) int {
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

// RiverGcBelow returns the pid of the river-gc that pid started, directly
// or through children of its own (npx runs a shell and node), or 0.
func RiverGcBelow(pid int) int {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	for _, f := range tasks {
		b, _ := os.ReadFile(f)
		for _, c := range strings.Fields(string(b)) {
			cpid, _ := strconv.Atoi(c)
			// The executable, not comm: a script run by the name river-gc
			// (the shim through npm's .bin, then env) has that comm too.
			if exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", cpid)); filepath.Base(exe) == "river-gc" {
				return cpid
			}
			if g := RiverGcBelow(cpid); g != 0 {
				return g
			}
		}
	}
	return 0
}

// WaitFor polls cond; the deadline only stops a hung test.
func WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
	}
}

// Interruptible is a --force run through a wrapper (River Review's CLI,
// the npm shim, npx) over a tree of InterruptibleFiles old files, frozen
// (SIGSTOP) right after its first deletion, so that what the test does
// next lands mid-run.
type Interruptible struct {
	// Root is the tree, Result the --output-file.
	Root, Result string
	// Cmd is the wrapper, started in a process group of its own.
	Cmd *exec.Cmd
	// Child is river-gc's pid.
	Child int
	// Stderr collects the wrapper's (and river-gc's) stderr.
	Stderr *strings.Builder
}

// InterruptibleFiles is the size of an Interruptible's tree.
const InterruptibleFiles = 20000

// StartInterruptible starts argv in dir (the tree when empty; its
// environment Env(node)) with the --force flags and --root, waits for river-gc below it and its first deletion,
// freezes river-gc and checks that it runs in a session of its own; it
// skips the test when river-gc finished first.
func StartInterruptible(t testing.TB, node, dir string, argv []string, now string) *Interruptible {
	t.Helper()
	root := memDir(t)
	old := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range InterruptibleFiles {
		p := filepath.Join(root, ".river", "tmp", fmt.Sprintf("d%02d", i%50), fmt.Sprintf("f%05d", i))
		if i < 50 {
			os.MkdirAll(filepath.Dir(p), 0o755)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, old, old)
	}
	r := &Interruptible{Root: root, Result: filepath.Join(t.TempDir(), "gc-result.json"), Stderr: &strings.Builder{}}
	r.Cmd = exec.Command(argv[0], append(argv[1:len(argv):len(argv)], "--force", "--json", "--quiet", "--now", now,
		"--output-file", r.Result, "--max-entries", "1000000", "--root", root)...)
	r.Cmd.Dir = root
	if dir != "" {
		r.Cmd.Dir = dir
	}
	r.Cmd.Env = Env(t, node)
	r.Cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	r.Cmd.Stderr = r.Stderr
	if err := r.Cmd.Start(); err != nil {
		t.Fatal(err)
	}
	WaitFor(t, "river-gc to start", func() bool { r.Child = RiverGcBelow(r.Cmd.Process.Pid); return r.Child != 0 })
	first := filepath.Join(root, ".river/tmp/d00/f00000")
	WaitFor(t, "the first deletion", func() bool { _, err := os.Lstat(first); return os.IsNotExist(err) })
	syscall.Kill(r.Child, syscall.SIGSTOP)
	WaitFor(t, "river-gc to stop", func() bool {
		s := ProcField(r.Child, "State")
		return strings.HasPrefix(s, "T") || strings.HasPrefix(s, "Z") || s == ""
	})
	if !strings.HasPrefix(ProcField(r.Child, "State"), "T") {
		r.Cmd.Wait()
		t.Skip("river-gc deleted all 20,000 files before it could be stopped; nothing to interrupt")
	}
	if !targetLeft(root) {
		// Stopped, but after its last deletion (a loaded machine): a
		// signal now could only meet the writing of its record.
		syscall.Kill(r.Child, syscall.SIGCONT)
		r.Cmd.Wait()
		t.Skip("river-gc deleted all 20,000 files before it was stopped; nothing to interrupt")
	}
	if Session(t, r.Child) == Session(t, r.Cmd.Process.Pid) {
		t.Error("river-gc shares its wrapper's session: a terminal's signal would reach it twice")
	}
	return r
}

// targetLeft reports whether any of the files StartInterruptible wrote
// is still below root's .river (at its path, or in a directory held or
// exchanged under a private name).
func targetLeft(root string) bool {
	found := false
	filepath.WalkDir(filepath.Join(root, ".river"), func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && strings.HasPrefix(d.Name(), "f") {
			found = true
			return fs.SkipAll
		}
		return nil
	})
	return found
}

// CheckInterrupted checks that river-gc wrote a record with one "interrupted" error,
// removed[] lists exactly the files gone, and some are left.
func (r *Interruptible) CheckInterrupted(t testing.TB) {
	t.Helper()
	var res struct {
		Removed []struct{ Path string }
		Errors  []struct{ Path, Message string }
	}
	b, err := os.ReadFile(r.Result)
	if err != nil {
		t.Fatalf("no record: %v\n%s", err, r.Stderr.String())
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Message, "interrupted") {
		t.Errorf("errors[] = %+v, want one entry saying the run was interrupted", res.Errors)
	}
	for _, rm := range res.Removed {
		if _, err := os.Lstat(filepath.Join(r.Root, rm.Path)); !os.IsNotExist(err) {
			t.Fatalf("removed[] lists %s, which is still there", rm.Path)
		}
	}
	left := 0
	filepath.WalkDir(r.Root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			left++
		}
		return nil
	})
	if len(res.Removed)+left != InterruptibleFiles || left == 0 {
		t.Errorf("removed[] lists %d, %d files are left, of %d", len(res.Removed), left, InterruptibleFiles)
	}
}

// memDir is a fresh directory on /dev/shm when that is a tmpfs (20,000
// files cost no disk there), else t.TempDir.
func memDir(t testing.TB) string {
	t.Helper()
	var fs syscall.Statfs_t
	if syscall.Statfs("/dev/shm", &fs) != nil || fs.Type != 0x01021994 { // TMPFS_MAGIC
		return t.TempDir()
	}
	d, err := os.MkdirTemp("/dev/shm", "npmtest-interrupt-")
	if err != nil {
		return t.TempDir()
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}
