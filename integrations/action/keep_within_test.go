package action

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKeepWithinReachesTheCommandLine runs run.sh with a recording
// binary: the keep-within input becomes --keep-within VALUE, and no such
// flag is passed when the input is empty.
func TestKeepWithinReachesTheCommandLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	args := filepath.Join(dir, "args")
	bin := filepath.Join(dir, "river-gc")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\nprintf '%s\\n' \"$@\" > '"+args+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ input, want string }{{"24h", "--keep-within\n24h\n"}, {"7d", "--keep-within\n7d\n"}, {"", ""}} {
		r := newRunner(t)
		code, out := r.script(t, t.TempDir(), "run.sh", "RIVER_GC_ACTION_BIN="+bin, "INPUT_KEEP_WITHIN="+tc.input, "INPUT_FORCE=true")
		if code != 0 {
			t.Fatalf("run.sh exit %d:\n%s", code, out)
		}
		got := readFile(t, args)
		if tc.want == "" && strings.Contains(got, "--keep-within") || !strings.Contains(got, tc.want) || !strings.Contains(got, "--force\n") {
			t.Errorf("keep-within %q: river-gc got\n%s", tc.input, got)
		}
	}
}
