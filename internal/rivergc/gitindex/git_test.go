//go:build linux

package gitindex

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// git runs git in dir with a neutral configuration and returns stdout.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found on PATH; the comparison with git ls-files cannot run")
	}
}

// outsideGit returns a fresh directory and skips when the temporary
// directory itself lies inside a git work tree.
func outsideGit(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if exec.Command("git", "-C", dir, "rev-parse", "--git-dir").Run() == nil {
		t.Skip("the temporary directory is inside a git work tree")
	}
	return dir
}

func write(t *testing.T, root string, rels ...string) {
	t.Helper()
	for _, rel := range rels {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(rel), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func tracked(t *testing.T, dir string) (*Set, error) {
	t.Helper()
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	return Tracked(fd)
}

// compare checks that the set from dir holds exactly what "git ls-files"
// run in dir lists, and none of untracked.
func compare(t *testing.T, dir string, s *Set, untracked ...string) {
	t.Helper()
	var want []string
	for _, p := range strings.Split(git(t, dir, "ls-files", "-z"), "\x00") {
		if p != "" {
			want = append(want, p)
		}
	}
	if len(want) == 0 {
		t.Fatal("git ls-files lists nothing; the test tree is wrong")
	}
	for _, p := range want {
		if !s.Contains(p) {
			t.Errorf("Contains(%q) = false, git tracks it", p)
		}
	}
	for _, p := range untracked {
		if s.Contains(p) {
			t.Errorf("Contains(%q) = true, git does not track it", p)
		}
	}
}

var files = []string{"a.txt", "with space.txt", "日本語/ファイル.json", "keep/.gitkeep", "d1/d2/deep file.md", "d1/x"}

var untracked = []string{"untracked.txt", "d1/d2/new", "日本語/other", "d1", "keep/.gitkeepx"}

// newRepo makes a work tree with files committed and untracked present.
func newRepo(t *testing.T) string {
	t.Helper()
	needGit(t)
	dir := outsideGit(t)
	git(t, dir, "init", "-q")
	write(t, dir, files...)
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-qm", "init")
	write(t, dir, "untracked.txt", "d1/d2/new", "日本語/other")
	return dir
}

func TestTrackedIndexVersions(t *testing.T) {
	dir := newRepo(t)
	for _, v := range []string{"2", "3", "4"} {
		t.Run("v"+v, func(t *testing.T) {
			git(t, dir, "update-index", "--index-version", v)
			if v == "3" {
				// Make version 3 carry an extended flag for real.
				git(t, dir, "update-index", "--skip-worktree", "d1/x")
			}
			data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
			if err != nil {
				t.Fatal(err)
			}
			if got := data[7]; string(rune('0'+got)) != v {
				t.Fatalf("index version on disk %d, want %s", got, v)
			}
			s, err := tracked(t, dir)
			if err != nil {
				t.Fatal(err)
			}
			if s.Len() != len(files) {
				t.Errorf("Len() = %d, want %d", s.Len(), len(files))
			}
			compare(t, dir, s, untracked...)
		})
	}
}

func TestTrackedSubdirectoryRoot(t *testing.T) {
	dir := newRepo(t)
	sub := filepath.Join(dir, "d1")
	s, err := tracked(t, sub)
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 2 {
		t.Errorf("Len() = %d, want 2 (d2/deep file.md, x)", s.Len())
	}
	compare(t, sub, s, "d2/new", "a.txt", "d1/x")
}

func TestTrackedNoRepository(t *testing.T) {
	needGit(t)
	dir := outsideGit(t)
	write(t, dir, "a.txt")
	s, err := tracked(t, dir)
	if err != nil || s.Len() != 0 || s.Contains("a.txt") {
		t.Fatalf("Tracked = %v (Len %d), %v; want an empty set, nil", s, s.Len(), err)
	}
}

func TestTrackedFreshInit(t *testing.T) {
	needGit(t)
	dir := outsideGit(t)
	git(t, dir, "init", "-q")
	write(t, dir, "a.txt")
	s, err := tracked(t, dir)
	if err != nil || s.Len() != 0 {
		t.Fatalf("Tracked = Len %d, %v; want an empty set, nil", s.Len(), err)
	}
}

func TestTrackedSparseIndex(t *testing.T) {
	dir := newRepo(t)
	git(t, dir, "sparse-checkout", "set", "--cone", "--sparse-index", "keep")
	data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	ix, err := parseIndex(data, sha1Size)
	if err != nil {
		t.Fatal(err)
	}
	dirs := 0
	for _, n := range ix.names {
		if strings.HasSuffix(n, "/") {
			dirs++
		}
	}
	if dirs == 0 {
		t.Skip("this git wrote no sparse directory entries")
	}
	s, err := tracked(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	compare(t, dir, s, "untracked.txt", "keep/other")
	// A root inside a sparse directory is tracked as a whole.
	if err := os.MkdirAll(filepath.Join(dir, "d1", "d2"), 0o755); err != nil {
		t.Fatal(err)
	}
	s, err = tracked(t, filepath.Join(dir, "d1", "d2"))
	if err != nil {
		t.Fatal(err)
	}
	if !s.Contains("deep file.md") {
		t.Error(`root d1/d2 inside sparse d1/: Contains("deep file.md") = false`)
	}
}

func TestTrackedSplitIndex(t *testing.T) {
	dir := newRepo(t)
	git(t, dir, "-c", "splitIndex.maxPercentChange=100", "update-index", "--split-index")
	// Replace, delete and add entries on top of the shared index.
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "-c", "splitIndex.maxPercentChange=100", "add", "a.txt")
	git(t, dir, "-c", "splitIndex.maxPercentChange=100", "rm", "-q", "--cached", "d1/x")
	write(t, dir, "added later.txt")
	git(t, dir, "-c", "splitIndex.maxPercentChange=100", "add", "added later.txt")
	data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	ix, err := parseIndex(data, sha1Size)
	if err != nil {
		t.Fatal(err)
	}
	if ix.link == nil || len(bits(t, ix.link.deleted)) == 0 || ix.replacements == 0 {
		t.Fatalf("the index is not split with deletions and replacements: %+v", ix.link)
	}
	s, err := tracked(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != len(files) {
		t.Errorf("Len() = %d, want %d", s.Len(), len(files))
	}
	compare(t, dir, s, "d1/x", "untracked.txt")
	if !s.Contains("added later.txt") {
		t.Error(`Contains("added later.txt") = false`)
	}
}

func TestTrackedSplitIndexMissingShared(t *testing.T) {
	dir := newRepo(t)
	git(t, dir, "update-index", "--split-index")
	shared, err := filepath.Glob(filepath.Join(dir, ".git", "sharedindex.*"))
	if err != nil || len(shared) != 1 {
		t.Fatalf("shared index files %v, %v; want one", shared, err)
	}
	if err := os.Remove(shared[0]); err != nil {
		t.Fatal(err)
	}
	s, err := tracked(t, dir)
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, unix.ENOENT) || s != nil || e.Op != OpReadIndex {
		t.Fatalf("Tracked = %v, %v; want nil and a read-index *Error with ENOENT", s, err)
	}
}

func TestTrackedLinkedWorktree(t *testing.T) {
	dir := newRepo(t)
	wt := filepath.Join(dir, "..", filepath.Base(dir)+"-wt")
	git(t, dir, "worktree", "add", "-q", wt)
	t.Cleanup(func() { os.RemoveAll(wt) })
	write(t, wt, "only-here.txt")
	git(t, wt, "add", "only-here.txt")
	s, err := tracked(t, wt)
	if err != nil {
		t.Fatal(err)
	}
	compare(t, wt, s, "untracked.txt")
	if s2, _ := tracked(t, dir); s2.Contains("only-here.txt") {
		t.Error("the main work tree reports a file staged only in the linked one")
	}
}

func TestTrackedRelativeGitFile(t *testing.T) {
	dir := newRepo(t)
	if err := os.Rename(filepath.Join(dir, ".git"), filepath.Join(dir, "store.git")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".git"), []byte("gitdir: store.git\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := tracked(t, filepath.Join(dir, "d1"))
	if err != nil {
		t.Fatal(err)
	}
	compare(t, filepath.Join(dir, "d1"), s, "d2/new")
}

func TestTrackedSHA256(t *testing.T) {
	needGit(t)
	dir := outsideGit(t)
	if exec.Command("git", "-C", dir, "init", "-q", "--object-format=sha256").Run() != nil {
		t.Skip("this git cannot create sha256 repositories")
	}
	write(t, dir, files...)
	git(t, dir, "add", ".")
	s, err := tracked(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	compare(t, dir, s, untracked...)
}

func TestTrackedCorruptIndex(t *testing.T) {
	dir := newRepo(t)
	p := filepath.Join(dir, ".git", "index")
	good, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	flipped := bytes.Clone(good)
	flipped[len(flipped)/2] ^= 0x40
	for name, data := range map[string][]byte{
		"empty":     {},
		"header":    good[:12],
		"truncated": good[:len(good)-7],
		"flipped":   flipped,
	} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := tracked(t, dir)
			if !errors.Is(err, ErrCorrupt) || s != nil {
				t.Fatalf("Tracked = %v, %v; want nil, ErrCorrupt", s, err)
			}
		})
	}
}

func TestTrackedSubmoduleCoversItsFiles(t *testing.T) {
	dir := newRepo(t)
	head := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))
	git(t, dir, "update-index", "--add", "--cacheinfo", "160000,"+head+",vendor/sub")
	s, err := tracked(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{
		"vendor/sub": true, "vendor/sub/any/file": true,
		"vendor/subx": false, "vendor": false, "vendor/other": false,
	} {
		if got := s.Contains(p); got != want {
			t.Errorf("Contains(%q) = %v, want %v", p, got, want)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "vendor", "sub", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if s, err = tracked(t, filepath.Join(dir, "vendor", "sub", "x")); err != nil || !s.Contains("y") {
		t.Errorf("root inside a submodule: Contains(\"y\") = false, %v; want true", err)
	}
}

// TestTrackedSplitIndexRuns makes bitmaps long enough for EWAH runs.
func TestTrackedSplitIndexRuns(t *testing.T) {
	dir := newRepo(t)
	var many []string
	for i := range 300 {
		many = append(many, fmt.Sprintf("many/f%03d", i))
	}
	write(t, dir, many...)
	git(t, dir, "add", "many")
	git(t, dir, "update-index", "--split-index")
	git(t, dir, "-c", "splitIndex.maxPercentChange=100", "rm", "-q", "--cached", "-r", "many")
	git(t, dir, "-c", "splitIndex.maxPercentChange=100", "add", "many/f299")
	data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	if ix, err := parseIndex(data, sha1Size); err != nil || ix.link == nil || len(bits(t, ix.link.deleted)) < 256 {
		t.Fatalf("index not split with ≥256 deletions: %v", err)
	}
	s, err := tracked(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	compare(t, dir, s, "many/f000", "many/f298")
	if s.Len() != len(files)+1 {
		t.Errorf("Len() = %d, want %d", s.Len(), len(files)+1)
	}
}

// bits decodes a split index bitmap without a bound of entries.
func bits(t *testing.T, bitmap []byte) []uint64 {
	t.Helper()
	set, err := ewahBits(bitmap, 1<<32)
	if err != nil {
		t.Fatal(err)
	}
	return set
}
