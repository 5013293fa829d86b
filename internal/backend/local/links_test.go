//go:build linux

package local

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/testtree"
)

// TestLatestTargetGuardedWithoutOpenat2: on a kernel without openat2 the
// target of artifacts/evals/latest is still found (and so guarded by the
// run).
func TestLatestTargetGuardedWithoutOpenat2(t *testing.T) {
	defer func(f func(int, string, *unix.OpenHow) (int, error)) { openat2 = f }(openat2)
	openat2 = func(int, string, *unix.OpenHow) (int, error) { return -1, unix.ENOSYS }
	root := t.TempDir()
	testtree.Write(t, root, "artifacts/evals/run-1/result.json", "{}", time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC))
	if err := os.Symlink(filepath.Join(root, "artifacts/evals/run-1"), filepath.Join(root, "artifacts/evals/latest")); err != nil {
		t.Fatal(err)
	}
	r, err := OpenRoot(root, true)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	target, link, isDir, err := LinkTarget(r.FD, "artifacts/evals/latest")
	if target != "artifacts/evals/run-1" || link == "" || !isDir || err != nil {
		t.Errorf("target %q (link %q, dir %v), err %v; want artifacts/evals/run-1", target, link, isDir, err)
	}
}
