//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// inPrivateMounts re-runs the calling test in a mount namespace of its
// own (unshare -m, private propagation), so that the bind mounts it makes
// are seen by it and its river-gc only; it reports whether the caller is
// that re-run. Without root or unshare the test is skipped, saying so.
func inPrivateMounts(t *testing.T) bool {
	t.Helper()
	if os.Getenv("RIVER_GC_TEST_UNSHARED") == t.Name() {
		return true
	}
	if os.Geteuid() != 0 {
		t.Skip("bind mounts need root (run the tests as root to enable this one)")
	}
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("unshare (util-linux) is not installed; it enables this test")
	}
	cmd := exec.Command("unshare", "-m", "--propagation", "private", os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "RIVER_GC_TEST_UNSHARED="+t.Name())
	out, err := cmd.CombinedOutput()
	if strings.Contains(string(out), "--- SKIP") {
		t.Skipf("skipped in its mount namespace:\n%s", out)
	}
	if err != nil {
		t.Fatalf("in its own mount namespace: %v\n%s", err, out)
	}
	return false
}

// TestHeldDirMountedOverDuringHold (SPEC B2 "Mounts"): while a
// --force run holds .river/tmp/big, a decoy directory outside the root,
// holding files of the same names as the targets, is bind-mounted over a
// subdirectory of the held directory, and another over the name
// .river/tmp/big itself (made again). No decoy file is touched and none
// is moved into; the targets below the mount are not deleted (errors[]),
// and nothing is left that the record does not name.
func TestHeldDirMountedOverDuringHold(t *testing.T) {
	t.Parallel()
	if !inPrivateMounts(t) {
		return
	}
	bin := buildBinary(t)
	root := t.TempDir()
	heldTree(t, root, "big", 2000)
	sub := heldTree(t, root, "big/sub", 50)
	decoy := t.TempDir()
	for _, p := range sub {
		if err := os.WriteFile(filepath.Join(decoy, filepath.Base(p)), []byte("decoy"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mount := func(at string) {
		t.Helper()
		if out, err := exec.Command("mount", "--bind", decoy, at).CombinedOutput(); err != nil {
			t.Skipf("mount --bind: %v %s", err, out)
		}
		t.Cleanup(func() { exec.Command("umount", "-l", at).Run() })
	}
	r := startHeld(t, bin, root, "big")
	mount(filepath.Join(root, ".river/tmp", heldPrefix+"big", "sub"))
	again := filepath.Join(root, ".river/tmp/big")
	if err := os.Mkdir(again, 0o755); err != nil {
		t.Fatal(err)
	}
	mount(again)
	code, rec := r.finish(t)
	names, err := os.ReadDir(decoy)
	if err != nil || len(names) != len(sub) {
		t.Fatalf("the decoy holds %d entries (%v), want its %d files", len(names), err, len(sub))
	}
	for _, n := range names {
		if b, err := os.ReadFile(filepath.Join(decoy, n.Name())); err != nil || string(b) != "decoy" {
			t.Fatalf("decoy %s: %q, %v", n.Name(), b, err)
		}
	}
	failed := map[string]bool{}
	for _, e := range rec.Errors {
		failed[e.Path] = true
	}
	for _, p := range sub {
		if !failed[p] {
			t.Errorf("%s (below the mount) is not in errors[]", p)
		}
	}
	if len(privateNames(root)) > 0 && !failed[".river/tmp/big"] {
		t.Errorf("the held directory stays under its private name and errors[] does not say so: %+v", rec.Errors[:min(3, len(rec.Errors))])
	}
	if code != 1 || len(rec.Removed) != 2000 {
		t.Errorf("exit %d, %d removed; want exit 1 and the 2000 files of big itself", code, len(rec.Removed))
	}
}
