package gitignore

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// TestMatchAgainstGit checks every row of matchCases three ways: Compile must
// accept the patterns, Match must return the row's hard-coded want, and (when
// git is on PATH) want must be what `git check-ignore --no-index` says. git
// is the authority: a disagreement with git means the table, and then the
// code, is wrong.
func TestMatchAgainstGit(t *testing.T) {
	var verdicts map[int]bool
	if _, err := exec.LookPath("git"); err == nil {
		verdicts = askGit(t, matchCases)
	}
	for i, c := range matchCases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Compile(c.patterns)
			if err != nil {
				t.Fatalf("Compile(%q): %v", c.patterns, err)
			}
			got := m.Match(c.path)
			if got != c.want {
				t.Errorf("Match(%q) with %q = %v, table says %v", c.path, c.patterns, got, c.want)
			}
			if verdicts == nil {
				return
			}
			if g := verdicts[i]; g != c.want {
				t.Errorf("git says %q with %q ignored=%v, table says %v (fix the table)", c.path, c.patterns, g, c.want)
			}
		})
	}
	if verdicts == nil {
		t.Skip("git not on PATH: checked hard-coded expectations only")
	}
}

// batch is one throw-away repository: one .gitignore and a set of paths that
// can all exist as files at once.
type batch struct {
	patterns []string
	rows     []int           // indices into the case list
	files    map[string]bool // paths created as files
	dirs     map[string]bool // their leading directories
}

// fits reports whether path can be created as a file next to the batch's
// existing files: it must not be one of their directories, and none of its
// own leading directories may already be a file.
func (b *batch) fits(path string) bool {
	if b.files[path] || b.dirs[path] {
		return false
	}
	for i := 0; i < len(path); i++ {
		if path[i] == '/' && b.files[path[:i]] {
			return false
		}
	}
	return true
}

func (b *batch) add(row int, path string) {
	b.rows = append(b.rows, row)
	b.files[path] = true
	for i := 0; i < len(path); i++ {
		if path[i] == '/' {
			b.dirs[path[:i]] = true
		}
	}
}

// askGit runs git check-ignore for all cases and returns git's verdict by
// case index. Cases sharing a pattern list share a work tree when their
// paths can coexist; all work trees share one repository (created once,
// because git init dominates the run time) and are checked in parallel.
func askGit(t *testing.T, cases []matchCase) map[int]bool {
	t.Helper()
	var batches []*batch
	byKey := map[string][]*batch{}
	for i, c := range cases {
		key := strings.Join(c.patterns, "\x00")
		var dst *batch
		for _, b := range byKey[key] {
			if b.fits(c.path) {
				dst = b
				break
			}
		}
		if dst == nil {
			dst = &batch{patterns: c.patterns, files: map[string]bool{}, dirs: map[string]bool{}}
			byKey[key] = append(byKey[key], dst)
			batches = append(batches, dst)
		}
		dst.add(i, c.path)
	}
	root := t.TempDir()
	gitDir := filepath.Join(root, "repo.git")
	runGit(t, root, nil, "init", "-q", "--template=", "--bare", gitDir)
	results := make([][]bool, len(batches))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for n, b := range batches {
		paths := make([]string, len(b.rows))
		for j, row := range b.rows {
			paths[j] = cases[row].path
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			work := filepath.Join(root, fmt.Sprintf("w%d", n))
			results[n] = gitCheckIgnore(t, gitDir, work, b.patterns, paths)
		}()
	}
	wg.Wait()
	verdicts := map[int]bool{}
	for n, b := range batches {
		if results[n] == nil {
			t.FailNow() // gitCheckIgnore reported why
		}
		for j, row := range b.rows {
			verdicts[row] = results[n][j]
		}
	}
	return verdicts
}

// runGit runs git in dir with only the repository's own configuration
// (system and global files shut out) and returns its standard output. A nil
// result with a reported error means git failed; check-ignore's exit status 1
// ("nothing ignored") is an answer, not a failure.
func runGit(t *testing.T, dir string, stdin []byte, args ...string) []byte {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"HOME="+dir, "XDG_CONFIG_HOME="+dir,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"LC_ALL=C")
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 1 && stderr.Len() == 0 {
		err = nil
	}
	if err != nil {
		t.Errorf("git %q: %v: %s", args, err, stderr.String())
		return nil
	}
	if out == nil {
		out = []byte{}
	}
	return out
}

// gitCheckIgnore fills the work tree dir with a root .gitignore holding the
// NFC forms of patterns (one per line) and each path as an empty file, then
// asks git in one --stdin call which paths are ignored. It returns nil after
// reporting an error (it may run on a goroutine, so it cannot FailNow).
func gitCheckIgnore(t *testing.T, gitDir, dir string, patterns, paths []string) []bool {
	var gi strings.Builder
	for _, pat := range patterns {
		gi.WriteString(norm.NFC.String(pat) + "\n")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Error(err)
		return nil
	}
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(gi.String()), 0o644); err != nil {
		t.Error(err)
		return nil
	}
	var in bytes.Buffer
	for _, path := range paths {
		full := filepath.Join(dir, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Error(err)
			return nil
		}
		if err := os.WriteFile(full, nil, 0o644); err != nil {
			t.Error(err)
			return nil
		}
		in.WriteString(path + "\x00")
	}
	out := runGit(t, dir, in.Bytes(), "--git-dir="+gitDir, "--work-tree=.",
		"-c", "core.bare=false", "-c", "core.ignorecase=false", "-c", "core.precomposeunicode=false",
		"-c", "core.excludesFile=/dev/null",
		"check-ignore", "--no-index", "--stdin", "-z", "-v", "-n")
	if out == nil {
		return nil
	}
	// With -z -v -n each path yields four NUL-terminated fields: source,
	// line number, pattern, path. The source is empty when nothing
	// matched; a pattern starting with '!' is a re-include.
	fields := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if len(fields) != 4*len(paths) {
		t.Errorf("git check-ignore: %d fields for %d paths: %q", len(fields), len(paths), out)
		return nil
	}
	res := make([]bool, len(paths))
	for j := range paths {
		f := fields[4*j : 4*j+4]
		if f[3] != paths[j] {
			t.Errorf("git check-ignore answered for %q, expected %q", f[3], paths[j])
			return nil
		}
		res[j] = f[0] != "" && !strings.HasPrefix(f[2], "!")
	}
	return res
}

// TestBenchCorpusAgainstGit asks git about the benchmark's realistic
// patterns and a few hundred generated paths, so the benchmark measures a
// Matcher that is known to agree with git on its own workload.
func TestBenchCorpusAgainstGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	m, err := Compile(benchPatterns)
	if err != nil {
		t.Fatal(err)
	}
	var cases []matchCase
	seen := map[string]bool{}
	for _, path := range benchPaths(300) {
		if seen[path] {
			continue // a repeated path would need another repository
		}
		seen[path] = true
		cases = append(cases, matchCase{name: path, patterns: benchPatterns, path: path})
	}
	verdicts := askGit(t, cases)
	for i, c := range cases {
		if got := m.Match(c.path); got != verdicts[i] {
			t.Errorf("Match(%q) = %v, git says %v", c.path, got, verdicts[i])
		}
	}
}
