//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/rivergc/stop"
)

// TestGoneParentStopsForceBeforeAnyDeletion: a --force run told by its
// wrapper that its parent is a process that is not its parent (the wrapper
// was killed before river-gc looked) deletes nothing, writes its record
// with one "interrupted" error and exits 1; a run whose RIVER_GC_PARENT_PID
// is its real parent, or that has none, deletes as usual.
func TestGoneParentStopsForceBeforeAnyDeletion(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	for _, tc := range []struct {
		name   string
		parent string // "" unset; "self" the test process, river-gc's parent
		code   int
		gone   bool
	}{
		{"no watch", "", 0, true},
		{"its parent", "self", 0, true},
		{"a parent that is gone", "1", 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			paths := oldTree(t, root, 50, 2)
			result := filepath.Join(t.TempDir(), "r.json")
			cmd := exec.Command(bin, append(forceArgs, "--root", root, "--output-file", result)...)
			cmd.Env = os.Environ()
			switch tc.parent {
			case "self":
				cmd.Env = append(cmd.Env, fmt.Sprintf("%s=%d", stop.ParentEnv, os.Getpid()))
			case "":
			default:
				cmd.Env = append(cmd.Env, stop.ParentEnv+"="+tc.parent)
			}
			out, _ := cmd.CombinedOutput()
			if code := cmd.ProcessState.ExitCode(); code != tc.code {
				t.Fatalf("exit %d, want %d\n%s", code, tc.code, out)
			}
			b, err := os.ReadFile(result)
			if err != nil {
				t.Fatal(err)
			}
			rec := readRecord(t, b)
			left := 0
			for _, p := range paths {
				if _, err := os.Lstat(filepath.Join(root, p)); err == nil {
					left++
				}
			}
			switch {
			case tc.gone && (left != 0 || len(rec.Errors) != 0):
				t.Errorf("%d of %d files left, errors %+v", left, len(paths), rec.Errors)
			case !tc.gone && (left != len(paths) || len(rec.Removed) != 0 || len(rec.Errors) != 1 ||
				!strings.Contains(rec.Errors[0].Message, "interrupted")):
				t.Errorf("%d of %d files left, removed %d, errors %+v", left, len(paths), len(rec.Removed), rec.Errors)
			}
		})
	}
}
