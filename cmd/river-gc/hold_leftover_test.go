//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// TestPrivateNamedDirectoriesNotRiverGCs: a directory named
// like a held one that river gc cannot have held is never renamed by a
// --force run. One holding .git is a repository of its own (SPEC B4:
// counted and named as one, never entered, never moved: a river gc hold
// never contains .git); one git tracks files under is left alone too.
func TestPrivateNamedDirectoriesNotRiverGCs(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed (the tracked case needs it)")
	}
	bin := buildBinary(t)
	root := t.TempDir()
	repo := filepath.Join(root, ".river/tmp", heldPrefix+"repo")
	tracked := filepath.Join(root, ".river/tmp", heldPrefix+"tracked")
	for _, f := range []string{repo + "/.git/HEAD", repo + "/f", tracked + "/g"} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.email=a@b", "-c", "user.name=a"}, args...)...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %q: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", ".river/tmp/"+heldPrefix+"tracked/g")
	git("commit", "-qm", "tracked")
	out, code := runGC(t, bin, append(forceArgs, "--root", root)...)
	for _, f := range []string{repo + "/.git/HEAD", repo + "/f", tracked + "/g"} {
		if _, err := os.Lstat(f); err != nil {
			t.Errorf("%s moved or gone: %v", f, err)
		}
	}
	kinds := warningKinds(t, out)
	if code != 0 || !slices.Contains(kinds, "nested-repo") || slices.Contains(kinds, "restored") {
		t.Errorf("exit %d, warnings %q; want exit 0, the repository named, nothing restored", code, kinds)
	}
}
