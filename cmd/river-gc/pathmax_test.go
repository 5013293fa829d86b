//go:build linux

package main

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestLatestBeyondPathMax (SPEC B4 "It must work ... with targets whose
// absolute path exceeds PATH_MAX"): a root more than 4096 bytes deep,
// the working directory of river-gc, with latest → run-1. --force keeps run-1
// and removes the old run-0; the kernel cannot name either by path.
func TestLatestBeyondPathMax(t *testing.T) {
	// Not parallel: it changes the process's working directory (t.Chdir).
	bin, err := exec.LookPath("river-gc") // installed on PATH by testscript.Main
	if err != nil {
		t.Fatal(err)
	}
	top := t.TempDir()
	cur, err := unix.Open(top, unix.O_PATH|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	mkdir := func(name string) {
		t.Helper()
		if err := unix.Mkdirat(cur, name, 0o755); err != nil && err != unix.EEXIST {
			t.Fatal(err)
		}
		next, err := unix.Openat(cur, name, unix.O_PATH|unix.O_DIRECTORY, 0)
		if err != nil {
			t.Fatal(err)
		}
		unix.Close(cur)
		cur = next
	}
	long := strings.Repeat("d", 250)
	for range 20 { // 20 × 251 bytes: beyond PATH_MAX
		mkdir(long)
	}
	rootFD, _ := unix.Dup(cur)
	old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	write := func(dirfd int, name, data string) {
		t.Helper()
		fd, err := unix.Openat(dirfd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		unix.Write(fd, []byte(data))
		ts := []unix.Timespec{{Sec: old}, {Sec: old}}
		if err := unix.UtimesNanoAt(dirfd, name, ts, 0); err != nil {
			t.Fatal(err)
		}
		unix.Close(fd)
	}
	for _, run := range []string{"run-0", "run-1"} {
		unix.Close(cur)
		cur, _ = unix.Dup(rootFD)
		mkdir("artifacts")
		mkdir("evals")
		if run == "run-1" {
			if err := unix.Symlinkat("run-1", cur, "latest"); err != nil {
				t.Fatal(err)
			}
		}
		mkdir(run)
		write(cur, "result.json", `{"timestamp":"2020-01-01T00:00:00Z"}`)
	}
	unix.Close(cur)
	defer unix.Close(rootFD)
	// The child inherits a working directory no path can name: chdir to
	// the deep root by descriptor (t.Chdir restores ours afterwards).
	t.Chdir(top)
	if err := unix.Fchdir(rootFD); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--root", ".", "--now", "2025-11-29T00:00:00Z", "--force", "--scope", "evals", "--lang", "en", "--json", "--quiet")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("river-gc: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), `"path": "artifacts/evals/run-0/result.json"`) {
		t.Errorf("the old run was not removed:\n%s", out)
	}
	if strings.Contains(string(out), "run-1/result.json") || strings.Contains(string(out), `"kind"`) {
		t.Errorf("the current run was removed, or a warning given:\n%s", out)
	}
}
