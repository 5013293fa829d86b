//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// heldPrefix is the private name a --force run holds a directory under
// while it deletes the files in it (package sweep, Options.Hold).
const heldPrefix = ".river-gc-deleting."

// heldTree writes n removable files (at forceArgs' --now) into
// .river/tmp/NAME, a directory river gc holds whole, and returns their
// root-relative paths, sorted.
func heldTree(t *testing.T, root, name string, n int) []string {
	t.Helper()
	dir := filepath.Join(root, ".river/tmp", name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for i := range n {
		rel := fmt.Sprintf(".river/tmp/%s/f%05d", name, i)
		if err := os.WriteFile(filepath.Join(root, rel), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, rel)
	}
	slices.Sort(paths)
	return paths
}

// heldRun is a --force run stopped (SIGSTOP) while it holds a directory.
type heldRun struct {
	cmd    *exec.Cmd
	result string // its --output-file
	stderr *strings.Builder
}

// startHeld starts river-gc with args on root and stops it as soon as
// the directory .river/tmp/NAME shows under its private name (inotify on
// .river/tmp, IN_MOVED_TO), so the test acts while the directory is held.
// It fails the test when the run ends first or after a minute.
func startHeld(t *testing.T, bin, root, name string, args ...string) *heldRun {
	t.Helper()
	return startHeldIn(t, bin, root, ".river/tmp", name, args...)
}

// startHeldIn is startHeld for the directory parent/NAME (parent
// root-relative).
func startHeldIn(t *testing.T, bin, root, parent, name string, args ...string) *heldRun {
	t.Helper()
	in, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		t.Skipf("inotify (which these tests stop a run with) is not available: %v", err)
	}
	defer unix.Close(in)
	if _, err := unix.InotifyAddWatch(in, filepath.Join(root, parent), unix.IN_MOVED_TO); err != nil {
		t.Fatal(err)
	}
	r := &heldRun{result: filepath.Join(t.TempDir(), "gc.json"), stderr: &strings.Builder{}}
	r.cmd = exec.Command(bin, append(append(slices.Clone(args), "--root", root, "--output-file", r.result), forceArgs...)...)
	r.cmd.Stderr = r.stderr
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.cmd.Process.Kill(); r.cmd.Wait() })
	want := heldPrefix + name
	buf := make([]byte, 64<<10)
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		fds := []unix.PollFd{{Fd: int32(in), Events: unix.POLLIN}}
		if _, err := unix.Poll(fds, 100); err != nil && err != unix.EINTR {
			t.Fatal(err)
		}
		n, err := unix.Read(in, buf)
		if err != nil && err != unix.EAGAIN && err != unix.EINTR {
			t.Fatal(err)
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			l := int(uint32(buf[off+12]) | uint32(buf[off+13])<<8 | uint32(buf[off+14])<<16 | uint32(buf[off+15])<<24)
			ev := strings.TrimRight(string(buf[off+unix.SizeofInotifyEvent:off+unix.SizeofInotifyEvent+l]), "\x00")
			off += unix.SizeofInotifyEvent + l
			if ev == want {
				r.cmd.Process.Signal(syscall.SIGSTOP)
				if _, err := os.Lstat(filepath.Join(root, parent, want)); err != nil {
					t.Skipf("the run went past its hold before it could be stopped (%v)", err)
				}
				return r
			}
		}
		var ws unix.WaitStatus
		if pid, _ := unix.Wait4(r.cmd.Process.Pid, &ws, unix.WNOHANG, nil); pid == r.cmd.Process.Pid {
			t.Fatalf("the run ended (%v) before it held %s/%s; stderr: %s", ws, parent, name, r.stderr)
		}
	}
	t.Fatalf("no hold of %s/%s within a minute", parent, name)
	return nil
}

// finish continues a stopped run and waits for it; it returns the exit
// code and the record.
func (r *heldRun) finish(t *testing.T) (int, gcRecord) {
	t.Helper()
	r.cmd.Process.Signal(syscall.SIGCONT)
	err := r.cmd.Wait()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(r.result)
	if err != nil {
		t.Fatalf("no record (exit %d, stderr %s): %v", code, r.stderr, err)
	}
	return code, readRecord(t, b)
}

// privateNames lists every path below root that holds the private
// prefix.
func privateNames(root string) []string {
	var out []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), heldPrefix) {
			rel, _ := filepath.Rel(root, p)
			out = append(out, rel)
		}
		return nil
	})
	return out
}

// removedPaths lists a record's removed[] paths.
func removedPaths(r gcRecord) []string {
	var out []string
	for _, x := range r.Removed {
		out = append(out, x.Path)
	}
	return out
}
