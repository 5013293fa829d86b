//go:build linux

// Package asnobody lets a package's tests run a piece of themselves as the
// unprivileged user 65534: the suite runs as root, which could read and
// delete anything, so real permission errors need another user. The test
// binary re-executes itself with a JSON argument; the child does the work
// and answers with JSON on stdout. It is test support only.
package asnobody

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// ID is the uid and gid the child runs as.
const ID = 65534

const envVar = "ASNOBODY_CHILD_ARG"

// Child must be called first in TestMain. In the re-executed child it
// decodes the argument, calls work, prints its result as JSON and exits;
// in the normal test process it returns at once.
func Child(work func(arg json.RawMessage) any) {
	arg, ok := os.LookupEnv(envVar)
	if !ok {
		return
	}
	if err := json.NewEncoder(os.Stdout).Encode(work(json.RawMessage(arg))); err != nil {
		os.Exit(3)
	}
	os.Exit(0)
}

// Run re-executes the test binary as uid/gid 65534 with arg and decodes
// the child's answer into out. It skips the test unless running as root.
// The binary is copied into base (which 65534 must be able to traverse),
// because go test's build directory is private to root.
func Run(t *testing.T, base string, arg, out any) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to switch to an unprivileged user")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(base, filepath.Base(self))
	if err := CopyExecutable(self, bin); err != nil {
		t.Fatal(err)
	}
	a, err := json.Marshal(arg)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^$")
	cmd.Env = append(os.Environ(), envVar+"="+string(a))
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: ID, Gid: ID}}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("child as uid %d: %v\n%s", ID, err, stderr.String())
	}
	if err := json.Unmarshal(stdout, out); err != nil {
		t.Fatalf("child output %q: %v", stdout, err)
	}
}

// PublicTempDir returns a fresh directory other users can traverse
// (t.TempDir's parents are private to root); it is removed after the test.
func PublicTempDir(t *testing.T, prefix string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// CopyExecutable copies a binary to a place an unprivileged user can run
// it from, creating parent directories.
func CopyExecutable(from, to string) error {
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	if err := dst.Close(); err != nil {
		return fmt.Errorf("copying test binary: %w", err)
	}
	return nil
}
