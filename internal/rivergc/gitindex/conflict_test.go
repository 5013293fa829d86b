//go:build linux

package gitindex

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestTrackedConflictStages: an unmerged path has up to three index
// entries (stages 1-3); it is tracked, and counted once.
func TestTrackedConflictStages(t *testing.T) {
	dir := newRepo(t)
	edit := func(content string) {
		if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		git(t, dir, "commit", "-qam", content)
	}
	git(t, dir, "checkout", "-qb", "other")
	edit("theirs")
	git(t, dir, "checkout", "-q", "main")
	edit("ours")
	cmd := exec.Command("git", "-c", "user.email=t@example.com", "-c", "user.name=t", "merge", "-q", "other")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+dir)
	if cmd.Run() == nil {
		t.Fatal("the merge did not conflict")
	}
	data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	ix, err := parseIndex(data, sha1Size)
	if err != nil {
		t.Fatal(err)
	}
	if len(ix.names) != len(files)+2 {
		t.Fatalf("index has %d entries, want %d (a.txt in three stages)", len(ix.names), len(files)+2)
	}
	s, err := tracked(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != len(files) || !s.Contains("a.txt") {
		t.Errorf("Len() = %d, Contains(a.txt) = %v; want %d, true", s.Len(), s.Contains("a.txt"), len(files))
	}
	compare(t, dir, s, untracked...)
}
