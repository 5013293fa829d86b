//go:build linux

package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestHeldDirSwappedDuringHold: while a --force run holds
// .river/tmp/big, the held directory is moved out of the root and a
// symlink to a decoy directory outside the root, holding files of the
// same names, is put at its private name. No decoy file is touched; what
// is deleted is only ever a scanned file (where it now is: the residual
// window of a moved directory), every one of them named in removed[];
// the files not yet deleted when the directory was moved are still in it.
func TestHeldDirSwappedDuringHold(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	root := memDir(t)
	before := heldTree(t, root, "big", 4000)
	elsewhere := memDir(t) // the same file system: a rename can move it there
	decoy := filepath.Join(elsewhere, "decoy")
	writeDecoy(t, decoy, before)
	r := startHeld(t, bin, root, "big")
	private := filepath.Join(root, ".river/tmp", heldPrefix+"big")
	moved := filepath.Join(elsewhere, "moved")
	if err := os.Rename(private, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(decoy, private); err != nil {
		t.Fatal(err)
	}
	_, rec := r.finish(t)
	for _, p := range before {
		if b, err := os.ReadFile(filepath.Join(decoy, filepath.Base(p))); err != nil || string(b) != "decoy" {
			t.Fatalf("decoy %s: %q, %v", filepath.Base(p), b, err)
		}
	}
	var gone []string
	for _, p := range before {
		if _, err := os.Lstat(filepath.Join(moved, filepath.Base(p))); err != nil {
			gone = append(gone, p)
		}
	}
	if got := removedPaths(rec); !slices.Equal(got, gone) {
		t.Errorf("removed[] lists %d files, %d are gone from the moved directory", len(got), len(gone))
	}
	if left := regularFiles(t, root); len(left) != 0 {
		t.Errorf("files below the root: %q", left)
	}
}
