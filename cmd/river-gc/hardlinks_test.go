//go:build linux

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// linkedTree writes n removable files into .river/tmp/DIR and links each
// under the same name into every directory of also (root-relative), as
// cp -al does; it returns the in-scope paths of both, sorted.
func linkedTree(t *testing.T, root, dir string, n int, also ...string) []string {
	t.Helper()
	var paths []string
	for _, d := range append([]string{".river/tmp/" + dir}, also...) {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		rel := fmt.Sprintf(".river/tmp/%s/f%03d", dir, i)
		if err := os.WriteFile(filepath.Join(root, rel), []byte("linked"), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, rel)
		for _, d := range also {
			other := fmt.Sprintf("%s/f%03d", d, i)
			if err := os.Link(filepath.Join(root, rel), filepath.Join(root, other)); err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(other, ".river/tmp/") {
				paths = append(paths, other)
			}
		}
	}
	slices.Sort(paths)
	return paths
}

// TestHardLinkedNamesAllRemoved (SPEC B8.1): two and three in-scope names
// of one inode, in directories of a few files (the per-file protocol) and
// of many (held whole), as cp -al snapshots make them. The run's own
// unlink of one name changes the inode's ctime and link count; that is
// no change since the scan: every name goes, removed[] lists exactly
// them, no error, exit 0.
func TestHardLinkedNamesAllRemoved(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	for _, tc := range []struct {
		name string
		n    int
		also []string
	}{
		{"per-file", 3, []string{".river/tmp/snap1"}},
		{"held", 40, []string{".river/tmp/snap1", ".river/tmp/snap2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := memDir(t)
			want := linkedTree(t, root, "live", tc.n, tc.also...)
			out, code := runGC(t, bin, append(forceArgs, "--root", root)...)
			rec := readRecord(t, out)
			if code != 0 || len(rec.Errors) != 0 {
				t.Errorf("exit %d, errors %+v", code, rec.Errors)
			}
			if got := removedPaths(rec); !slices.Equal(got, want) {
				t.Errorf("removed[] = %q, want %q", got, want)
			}
			if left := regularFiles(t, root); len(left) != 0 {
				t.Errorf("left behind: %q", left)
			}
		})
	}
}

// TestHardLinkOutsideTheRunStays (SPEC B8.1): one name of each file in
// scope, the other protected — excluded, or outside every scope. The
// in-scope name is removed; the other is untouched, bytes and all.
func TestHardLinkOutsideTheRunStays(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	for _, tc := range []struct {
		name, other string
		args        []string
	}{
		{"excluded", ".river/tmp/kept", []string{"--exclude", ".river/tmp/kept/"}},
		{"out of scope", "outside", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := memDir(t)
			linkedTree(t, root, "live", 10, tc.other)
			out, code := runGC(t, bin, append(append(forceArgs, "--root", root), tc.args...)...)
			rec := readRecord(t, out)
			var want, kept []string
			for i := range 10 {
				want = append(want, fmt.Sprintf(".river/tmp/live/f%03d", i))
				kept = append(kept, fmt.Sprintf("%s/f%03d", tc.other, i))
			}
			if got := removedPaths(rec); code != 0 || !slices.Equal(got, want) {
				t.Errorf("exit %d, removed[] = %q, want %q; errors %+v", code, got, want, rec.Errors)
			}
			if left := regularFiles(t, root); !slices.Equal(left, kept) {
				t.Errorf("left: %q, want %q", left, kept)
			}
			for _, p := range kept {
				if b, err := os.ReadFile(filepath.Join(root, p)); err != nil || string(b) != "linked" {
					t.Errorf("%s: %q, %v", p, b, err)
				}
			}
		})
	}
}

// TestHardLinkWrittenThroughAnotherNameIsKept (SPEC B8.1): two in-scope
// names x and y of one file in one directory (handled in that order), a
// third name outside every scope. The run is stopped at the rename of x,
// after x's first check, and the file is appended to through the third
// name. No name of the file is deleted: x fails its check after the
// rename and is put back, y's ctime and mtime are not those of the
// scan nor those the run's own operations left; the third name keeps the
// writer's bytes, and the run exits 1 naming the change. (The same write
// after x is unlinked, before and after y's first check: sweep's
// TestLinkedWriteAfterOwnUnlinkIsKept.)
func TestHardLinkWrittenThroughAnotherNameIsKept(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	root := memDir(t)
	for _, d := range []string{".river/tmp/a", "outside"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	x := filepath.Join(root, ".river/tmp/a/x")
	if err := os.WriteFile(x, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{".river/tmp/a/y", "outside/z"} {
		if err := os.Link(x, filepath.Join(root, n)); err != nil {
			t.Fatal(err)
		}
	}
	r := startStopped(t, bin, root, ".river/tmp/a", "x", "1+")
	f, err := os.OpenFile(filepath.Join(root, "outside/z"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(" and new"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	code, rec := r.finish(t)
	if got := removedPaths(rec); code != 1 || len(got) != 0 {
		t.Errorf("exit %d, removed[] = %q, want exit 1 and none", code, got)
	}
	if left, want := regularFiles(t, root), []string{".river/tmp/a/x", ".river/tmp/a/y", "outside/z"}; !slices.Equal(left, want) {
		t.Errorf("left: %q, want %q", left, want)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "outside/z")); string(b) != "old and new" {
		t.Errorf("the writer's name holds %q", b)
	}
	if len(rec.Errors) != 2 || !strings.Contains(rec.Errors[0].Message, "changed") || !strings.Contains(rec.Errors[1].Message, "changed") {
		t.Errorf("errors[] %+v: want both names' change", rec.Errors)
	}
}
