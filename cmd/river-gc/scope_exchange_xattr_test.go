//go:build linux

package main

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestScopeDirectoryKeepsItsAttributesAfterAKilledExchange (attack, SPEC
// B2, decision 360): a --force run is SIGKILLed while .river/tmp, which
// carries an extended attribute (as a default ACL is one), is exchanged
// for the fresh directory. The next --force run puts the directory back
// the way Restore does — merged into the fresh directory at the name —
// so the fresh directory holds .river/tmp's name for good: it must carry
// the attribute. Today it is lost for good ("not copied to the fresh
// directory: it holds the name only while the run deletes" is not so
// after a kill), and with a default ACL every file later made in
// .river/tmp loses the access it granted.
func TestScopeDirectoryKeepsItsAttributesAfterAKilledExchange(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	root := t.TempDir()
	scopeTree(t, root, 3000)
	dir := filepath.Join(root, ".river/tmp")
	if err := unix.Setxattr(dir, "user.river-ci", []byte("keep"), 0); errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.EPERM) {
		t.Skipf("no user extended attributes here: %v", err)
	} else if err != nil {
		t.Fatal(err)
	}
	r := startStoppedAt(t, bin, root, exchanged)
	r.signal(syscall.SIGKILL)
	r.cmd.Wait()
	if _, err := os.Lstat(filepath.Join(root, scopePrivate)); err != nil {
		t.Fatalf("the killed run left no %s: %v", scopePrivate, err)
	}
	if out, code := runGC(t, bin, append(forceArgs, "--root", root)...); code != 0 {
		t.Fatalf("the next --force: exit %d; %.400s", code, out)
	}
	buf := make([]byte, 64)
	n, err := unix.Getxattr(dir, "user.river-ci", buf)
	if err != nil || string(buf[:n]) != "keep" {
		t.Errorf(".river/tmp after the next --force: user.river-ci %q, %v; want %q", buf[:max(n, 0)], err, "keep")
	}
	if left := privateNames(root); len(left) != 0 {
		t.Errorf("left under a private name: %q", left)
	}
}
