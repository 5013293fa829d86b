//go:build linux

package command

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/rivergc/config"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
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
	cfg, err := config.Load(config.Flags{JSON: true, OutputFile: "out/gc.json", SummaryFile: "out/summary.md", RetentionDays: []string{"90"},
		MaxEntries: []string{"1000"}, MaxSizeMb: []string{"500"}, Now: "2025-11-29T00:00:00Z", Timestamp: "metadata", Lang: "en"},
		map[string]bool{"now": true})
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.Run.Root.Close()
	c := &command{Config: cfg, opt: Options{Since: func(time.Time) int64 { return 0 }}}
	// The swap, between validation and writing.
	if err := os.Remove("out"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".river/memory", "out"); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err = c.write(gc.Outcome{Mode: gc.Force}, nil, cfg.Run, &stdout, &stderr)
	// Neither a config error nor ErrRuntime alone: the main maps it to 1.
	var ce *config.Error
	if err == nil || errors.As(err, &ce) || errors.Is(err, ErrRuntime) || !strings.Contains(err.Error(), "changed during the run") {
		t.Errorf("err = %v, want a runtime failure naming the change", err)
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
