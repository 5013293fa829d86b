//go:build linux

package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/render"
)

// TestOutputPathsRecheckedAtWriteTime (SPEC B2): an output directory
// swapped, after the flags were validated, for a symlink into a scope is
// refused when the result is written. The record then goes to stdout and
// the run fails with exit 1 (not 2: deletions may already have happened).
func TestOutputPathsRecheckedAtWriteTime(t *testing.T) {
	repo := t.TempDir()
	for _, d := range []string{".river/memory", "out"} {
		if err := os.MkdirAll(filepath.Join(repo, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(repo)
	c := cli{JSON: true, OutputFile: "out/gc.json", SummaryFile: "out/summary.md", RetentionDays: []string{"90"},
		MaxEntries: []string{"1000"}, MaxSizeMb: []string{"500"}, Now: "2025-11-29T00:00:00Z", Timestamp: "metadata", Lang: "en"}
	cfg, err := c.config(map[string]bool{"now": true})
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.Root.Close()
	// The swap, between validation and writing.
	if err := os.Remove("out"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".river/memory", "out"); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err = c.write(gc.Outcome{Mode: gc.Force}, nil, cfg, &stdout, &stderr)
	var ce *configError
	if err == nil || errors.As(err, &ce) || !strings.Contains(err.Error(), "changed during the run") {
		t.Errorf("err = %v, want a runtime failure naming the change", err)
	}
	if exitCode(err, &stderr, render.English) != 1 {
		t.Errorf("exit code is not 1")
	}
	if !strings.Contains(stdout.String(), `"version": "1"`) {
		t.Errorf("the record did not fall back to stdout: %q", stdout.String())
	}
	for _, f := range []string{".river/memory/gc.json", ".river/memory/summary.md"} {
		if _, err := os.Lstat(f); err == nil {
			t.Errorf("%s was written into scope memory", f)
		}
	}
}
