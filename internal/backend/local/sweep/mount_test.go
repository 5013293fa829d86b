//go:build linux

package sweep

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/fserr"

	"golang.org/x/sys/unix"
)

// mountNSEnv marks the test binary re-executed inside a private mount
// namespace (unshare -m), where TestDeleteBindMount may mount freely.
const mountNSEnv = "SWEEP_TEST_IN_MOUNT_NS"

// TestDeleteBindMount: files behind a bind mount inside the tree — same
// device, another mount — are never deleted, whether the mount is a
// directory on the way or the file itself. It runs as root, in a private
// mount namespace of a re-executed test binary, so no mount leaks out.
func TestDeleteBindMount(t *testing.T) {
	if os.Getenv(mountNSEnv) != "1" {
		reexecInMountNS(t, "TestDeleteBindMount")
		return
	}
	withResolver(t, func(t *testing.T) {
		root, outside := t.TempDir(), t.TempDir()
		write(t, outside, "data/a", "a")
		write(t, outside, "data/sub/b", "b")
		write(t, outside, "file", "f")
		write(t, root, "plain", "p")
		write(t, root, "f", "placeholder")
		if err := os.MkdirAll(filepath.Join(root, "dir/mnt"), 0o755); err != nil {
			t.Fatal(err)
		}
		bind(t, filepath.Join(outside, "data"), filepath.Join(root, "dir/mnt"))
		bind(t, filepath.Join(outside, "file"), filepath.Join(root, "f"))
		targets := []Target{
			target(t, root, "dir/mnt/a"),
			target(t, root, "dir/mnt/sub/b"),
			target(t, root, "f"),
			target(t, root, "plain"),
		}
		rep := del(t, root, targets, Options{})
		if !slices.Equal(rep.Deleted, []string{"plain"}) {
			t.Errorf("deleted %q", rep.Deleted)
		}
		checkErrors(t, rep.Errors, fserr.OpDelete, map[string]match{
			"dir/mnt/a":     is(fserr.ErrOtherMount),
			"dir/mnt/sub/b": is(fserr.ErrOtherMount),
			"f":             is(fserr.ErrOtherMount),
		})
		for _, p := range []string{"data/a", "data/sub/b", "file"} {
			if !exists(outside, p) {
				t.Errorf("%s behind the bind mount was deleted", p)
			}
		}
	})
}

// bind mounts from onto to until the end of the test.
func bind(t *testing.T, from, to string) {
	t.Helper()
	if err := unix.Mount(from, to, "", unix.MS_BIND, ""); err != nil {
		t.Fatalf("bind mount: %v", err)
	}
	t.Cleanup(func() { unix.Unmount(to, unix.MNT_DETACH) })
}

// reexecInMountNS runs the test named name again in this test binary
// under `unshare -m --propagation private`, and reports its outcome here.
// It skips where that is impossible (not root, no unshare, no namespaces).
func reexecInMountNS(t *testing.T, name string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to create a private mount namespace (unshare -m)")
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("needs unshare(1) to create a private mount namespace")
	}
	cmd := exec.Command(unshare, "-m", "--propagation", "private",
		os.Args[0], "-test.run=^"+name+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), mountNSEnv+"=1")
	out, err := cmd.CombinedOutput()
	switch {
	case !strings.Contains(string(out), "=== RUN"):
		t.Skipf("cannot create a private mount namespace: %v\n%s", err, out)
	case err != nil:
		t.Fatalf("in the mount namespace: %v\n%s", err, out)
	case strings.Contains(string(out), "--- SKIP: "+name+" "):
		t.Skipf("skipped in the mount namespace:\n%s", out)
	case !strings.Contains(string(out), "--- PASS: "+name):
		t.Fatalf("no pass reported from the mount namespace:\n%s", out)
	}
}
