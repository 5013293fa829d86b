//go:build linux

package gitindex

import (
	"slices"
	"testing"
)

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

// TestFilesWithPrefix (decision 346): the files the index lists whose
// path begins with the prefix, sorted; a sparse directory or submodule
// beginning so is no file of its own, and one above the prefix does not
// name the files below it.
func TestFilesWithPrefix(t *testing.T) {
	set := func() map[string]struct{} { return map[string]struct{}{} }
	s := &Set{files: set(), dirs: set()}
	for _, f := range []string{".river/gc-journal.unreadable-2", ".river/gc-journal", ".river/gc-journalx", ".river/gc", ".river/memory/a", "z"} {
		s.files[f] = struct{}{}
	}
	s.dirs[".river/gc-journal-sub"] = struct{}{}
	s.dirs["artifacts"] = struct{}{}
	got := s.FilesWithPrefix(".river/gc-journal")
	want := []string{".river/gc-journal", ".river/gc-journal.unreadable-2", ".river/gc-journalx"}
	if !slices.Equal(got, want) {
		t.Errorf("FilesWithPrefix = %q, want %q", got, want)
	}
	if got := s.FilesWithPrefix("artifacts/.river-gc-journal"); got != nil {
		t.Errorf("FilesWithPrefix below a submodule = %q, want none", got)
	}
	if !s.HasUnder(".river") || s.HasUnder("y") { // the sorted paths shared with HasUnder
		t.Error("HasUnder after FilesWithPrefix is wrong")
	}
	var none *Set
	if got := none.FilesWithPrefix(""); got != nil {
		t.Errorf("a nil set lists %q", got)
	}
}
