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
