//go:build linux

package gitindex

import "testing"

// TestHasUnder: a directory has something tracked below it when a file
// or a sparse directory (or submodule) lies below it, or it lies in one;
// a sibling that only shares a prefix of its name does not count.
func TestHasUnder(t *testing.T) {
	set := func() map[string]struct{} { return map[string]struct{}{} }
	s := &Set{files: set(), dirs: set()}
	for _, f := range []string{"a/b/c", "a/b-c/f", "a/b0", "z"} {
		s.files[f] = struct{}{}
	}
	s.dirs["s/sub"] = struct{}{}
	for dir, want := range map[string]bool{
		"a": true, "a/b": true, "a/b-c": true, "s": true, "s/sub": true, "s/sub/x": true,
		"a/b/c/d": false, "a/b-": false, "x": false, "z/y": false, "s/su": false,
	} {
		if got := s.HasUnder(dir); got != want {
			t.Errorf("HasUnder(%q) = %v, want %v", dir, got, want)
		}
	}
	var none *Set
	if none.HasUnder("a") {
		t.Error("a nil set tracks something")
	}
}
