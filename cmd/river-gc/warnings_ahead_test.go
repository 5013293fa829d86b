//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestWarningsComeBeforeTheFirstDeletion runs the real binary under
// strace and reads the order of its system calls, as a user meets it:
// with --force, the warning about fresh files the count limit takes is
// written to stderr before the first file is renamed or unlinked
// (SPEC B9), with --quiet too, and under GitHub Actions its annotation
// is written then as well.
func TestWarningsComeBeforeTheFirstDeletion(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("strace"); err != nil {
		t.Skip("strace (which this test reads the order of calls with) is not installed")
	}
	bin := buildBinary(t)
	for _, tc := range []struct {
		name    string
		args    []string
		env     []string
		first   string // the first line written to stderr, as a regexp
		summary bool   // stdout holds the summary, the warning again
	}{
		{"quiet", []string{"--quiet"}, nil, `river gc: warning: scope tmp: 3 files younger than 24 hours`, false},
		{"github actions", nil, []string{"GITHUB_ACTIONS=true"}, `river gc: warning: scope tmp: 3 files younger than 24 hours.*\\n::warning title=river-gc::scope tmp: 3 files younger than 24 hours`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			now := time.Date(2025, 11, 29, 0, 0, 0, 0, time.UTC)
			for i, name := range []string{"f1", "f2", "f3", "f4", "f5"} {
				p := filepath.Join(root, ".river", "tmp", name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
				at := now.Add(-time.Duration(10-i) * time.Hour)
				if err := os.Chtimes(p, at, at); err != nil {
					t.Fatal(err)
				}
			}
			trace := filepath.Join(t.TempDir(), "trace")
			args := append([]string{"-f", "-qq", "-s", "4096", "-o", trace, "-e", "trace=write,renameat2,unlinkat", "--", bin,
				"--root", root, "--now", "2025-11-29T00:00:00Z", "--scope", "tmp", "--max-entries", "2", "--force"}, tc.args...)
			cmd := exec.Command("strace", args...)
			cmd.Env = append(os.Environ(), tc.env...)
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%v\n%s", err, stderr.String())
			}
			b, err := os.ReadFile(trace)
			if err != nil {
				t.Fatal(err)
			}
			warned, deleted := -1, -1
			warning := regexp.MustCompile(`write\(2, "` + tc.first)
			for i, line := range strings.Split(string(b), "\n") {
				if warned < 0 && warning.MatchString(line) {
					warned = i
				}
				if deleted < 0 && (strings.Contains(line, "renameat2(") || strings.Contains(line, "unlinkat(")) && strings.Contains(line, `"f`) {
					deleted = i
				}
			}
			if warned < 0 || deleted < 0 || warned > deleted {
				t.Fatalf("warning at trace line %d, first deletion at %d (want the warning first):\n%s", warned, deleted, b)
			}
			for _, gone := range []string{"f1", "f2", "f3"} {
				if _, err := os.Lstat(filepath.Join(root, ".river", "tmp", gone)); !os.IsNotExist(err) {
					t.Errorf("%s: %v, want it deleted", gone, err)
				}
			}
			if n := strings.Count(stderr.String(), "3 files younger than 24 hours"); n != 1+strings.Count(tc.first, "::warning") {
				t.Errorf("stderr has the warning %d times:\n%s", n, stderr.String())
			}
			if got := strings.Contains(stdout.String(), "warning: scope tmp: 3 files younger"); got != tc.summary {
				t.Errorf("summary holds the warning: %v, want %v:\n%s", got, tc.summary, stdout.String())
			}
		})
	}
}
