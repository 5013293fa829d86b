//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/report"
)

// TestSummaryFileStaysBelowTheStepSummaryLimit (SPEC B4, B5): 1,000
// removals with 3 KB paths, appended to a step summary that already
// holds 600 KB, keep the whole file below GitHub's 1 MiB (the summary
// says where it was cut and that the full list is in the JSON), fold the
// long list in <details>, and escape "&" in a pattern.
func TestSummaryFileStaysBelowTheStepSummaryLimit(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	root := memDir(t)
	deep := ".river/tmp"
	for i := range 12 {
		deep += "/" + strings.Repeat(string(rune('a'+i)), 250)
	}
	if err := os.MkdirAll(filepath.Join(root, deep), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 1000 {
		if err := os.WriteFile(filepath.Join(root, deep, fmt.Sprintf("f%04d", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sum := filepath.Join(t.TempDir(), "step-summary.md")
	before := bytes.Repeat([]byte("earlier step output\n"), 30000)
	if err := os.WriteFile(sum, before, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--root", root, "--now", future, "--quiet", "--summary-file", sum, "--exclude", "x&rlm;y")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	b, err := os.ReadFile(sum)
	if err != nil {
		t.Fatal(err)
	}
	md := string(b[len(before):])
	switch {
	case len(b) >= 1<<20:
		t.Errorf("step summary is %d bytes, want < 1 MiB", len(b))
	case !bytes.HasPrefix(b, before):
		t.Errorf("the earlier content changed")
	case !strings.Contains(md, "the summary was cut here") || !strings.Contains(md, "--json"):
		t.Errorf("no notice of the cut")
	case !strings.Contains(md, "<details>") || !strings.Contains(md, "</details>"):
		t.Errorf("the removal list is not folded")
	case strings.Contains(md, "&rlm;") || !strings.Contains(md, "x&amp;rlm;y"):
		t.Errorf("& not escaped in the unused-exclude warning")
	}
	if len(md) > report.MarkdownMaxBytes {
		t.Errorf("the summary alone is %d bytes", len(md))
	}
}
