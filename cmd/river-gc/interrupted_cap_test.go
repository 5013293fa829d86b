//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestInterruptedListHasTheCap (SPEC B6, issue 24): the killed run's
// list is cut like the removals: 200 paths and a count off a terminal,
// 20 on one, every path with --verbose, the first 1,000 in the Markdown
// summary, and all 1,844 in the JSON (it was 1,844 lines of summary after
// one kill).
func TestInterruptedListHasTheCap(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".river/tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	const n = 1844
	var paths []string
	for i := range n {
		paths = append(paths, fmt.Sprintf(".river/tmp/gone-%04d", i))
	}
	writeJournal(t, root, paths)
	listed := func(summary string) (int, string) {
		k, more := 0, ""
		for _, l := range strings.Split(summary, "\n") {
			switch {
			case strings.HasPrefix(l, "  .river/tmp/gone-"):
				k++
			case strings.Contains(l, "more (see --json or --verbose)"):
				more = l
			}
		}
		return k, more
	}
	args := []string{"--root", root, "--lang", "en"}
	out, code := runGC(t, bin, args...)
	if k, more := listed(string(out)); code != 0 || k != 200 || !strings.Contains(more, fmt.Sprint(n-200)) {
		t.Errorf("off a terminal: exit %d, %d paths listed (want 200), count line %q", code, k, more)
	}
	out, _ = runGC(t, bin, append(args, "--verbose")...)
	if k, more := listed(string(out)); k != n || more != "" {
		t.Errorf("--verbose: %d paths listed (want %d), count line %q", k, n, more)
	}
	out, _ = runGC(t, bin, append(args, "--json", "--quiet")...)
	if got := countOf(readRecord(t, out)); got != n {
		t.Errorf("JSON: %d paths, want %d", got, n)
	}
	md := filepath.Join(t.TempDir(), "summary.md")
	runGC(t, bin, append(args, "--quiet", "--summary-file", md)...)
	b, err := os.ReadFile(md)
	if k := strings.Count(string(b), "- `.river/tmp/gone-"); err != nil || k != 1000 || !strings.Contains(string(b), fmt.Sprint(n-1000)) {
		t.Errorf("Markdown: %d paths listed (want 1000, and a count of %d more), %v", k, n-1000, err)
	}
	cmd := exec.Command(bin, args...)
	term, _ := onTerminal(t, cmd, &cmd.Stdout, &cmd.Stderr)
	summary := strings.ReplaceAll(term.String(), "\r\n", "\n")
	if k, more := listed(summary); k != 20 || !strings.Contains(more, fmt.Sprint(n-20)) {
		t.Errorf("on a terminal: %d paths listed (want 20), count line %q", k, more)
	}
}
