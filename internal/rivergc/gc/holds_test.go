//go:build linux

package gc

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/backend/local/sweep"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/scan"
)

// TestHoldDirs: a directory is held whole only when every entry the scan
// counted in it is a target or a directory held whole with it, with at
// least minHold targets below; only the outermost is listed.
func TestHoldDirs(t *testing.T) {
	var ts []sweep.Target
	files := func(dir string, n int) {
		for i := range n {
			ts = append(ts, sweep.Target{Path: fmt.Sprintf("%s/f%02d", dir, i)})
		}
	}
	const s = ".river/tmp/"
	files(s+"all", 10)        // whole
	files(s+"all/sub", 3)     // whole, inside all
	files(s+"kept", 10)       // one entry more than its targets: a file that stays
	files(s+"kept/sub", 10)   // whole, but under kept: listed itself
	files(s+"few", minHold-1) // whole, too few
	files(s+"link", 10)       // a symlink beside the files
	files(s+"unlisted", 10)   // its subdirectory was not listed (no file of its own)
	files(s+"unread/sub", 9)  // whole; its parent could not be read
	slices.SortFunc(ts, func(a, b sweep.Target) int { return strings.Compare(a.Path, b.Path) })
	dirs := []scan.Dir{
		{Path: s + "all", Entries: 11}, {Path: s + "all/sub", Entries: 3},
		{Path: s + "kept", Entries: 12}, {Path: s + "kept/sub", Entries: 10},
		{Path: s + "few", Entries: minHold - 1},
		{Path: s + "link", Entries: 11},
		{Path: s + "unlisted", Entries: 11},
		{Path: s + "unread/sub", Entries: 9},
	}
	got := holdDirs(dirs, ts)
	want := []string{s + "all", s + "kept/sub", s + "unread/sub"}
	if !slices.Equal(got, want) {
		t.Errorf("holdDirs = %q, want %q", got, want)
	}
	if got := holdDirs(nil, ts); got != nil {
		t.Errorf("without directories: %q", got)
	}
}

// TestScopeDirectoryHeldAndExchanged: a scope's own directory (which scan
// lists too) is held when every entry goes, the directories below it
// with it, and it is one gc exchanges rather than renames (decision 360);
// artifacts/, which review-artifacts only lists, is not one of those.
func TestScopeDirectoryHeldAndExchanged(t *testing.T) {
	var ts []sweep.Target
	for _, dir := range []string{".river/tmp", ".river/tmp/sub"} {
		for i := range 10 {
			ts = append(ts, sweep.Target{Path: fmt.Sprintf("%s/f%02d", dir, i)})
		}
	}
	slices.SortFunc(ts, func(a, b sweep.Target) int { return strings.Compare(a.Path, b.Path) })
	for _, tc := range []struct {
		entries int
		want    []string
	}{{11, []string{".river/tmp"}}, {12, []string{".river/tmp/sub"}}} {
		dirs := []scan.Dir{{Path: ".river/tmp", Entries: tc.entries}, {Path: ".river/tmp/sub", Entries: 10}}
		if got := holdDirs(dirs, ts); !slices.Equal(got, tc.want) {
			t.Errorf("%d entries in .river/tmp: holdDirs = %q, want %q", tc.entries, got, tc.want)
		}
	}
	ex := exchanged()
	for _, d := range []string{".river/tmp", "artifacts/.tmp", ".river/memory", "artifacts/evals", ".river/runs"} {
		if !slices.Contains(ex, d) {
			t.Errorf("%s is not exchanged: %q", d, ex)
		}
	}
	if slices.Contains(ex, "artifacts") || slices.Contains(ex, ".river/tmp/sub") {
		t.Errorf("exchanged lists more than the recursive scopes' own directories: %q", ex)
	}
}
