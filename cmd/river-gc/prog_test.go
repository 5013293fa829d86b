//go:build linux

package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestHelpNamesTheProgramItWasCalledBy: with RIVER_GC_PROG="river gc"
// (set by River Review's `river gc`), the usage line and every example of
// --help say `river gc`; any other value keeps `river-gc`.
func TestHelpNamesTheProgramItWasCalledBy(t *testing.T) {
	// Not parallel: it sets the process's environment (t.Setenv).
	for _, tc := range []struct{ env, want, not string }{
		{"river gc", "Usage: river gc [flags]", "river-gc --"},
		{"", "Usage: river-gc [flags]", "river gc --"},
		{"rm -rf /", "Usage: river-gc [flags]", "rm -rf"},
	} {
		t.Setenv(ProgEnv, tc.env)
		var out, errOut bytes.Buffer
		if err := run(context.Background(), &out, &errOut, []string{"--help"}); err != nil {
			t.Fatalf("%q: %v", tc.env, err)
		}
		help := out.String()
		if !strings.Contains(help, tc.want) || strings.Contains(help, tc.not) {
			t.Errorf("%s=%q: --help lacks %q or holds %q:\n%s", ProgEnv, tc.env, tc.want, tc.not, help)
		}
		if n := strings.Count(help, "\n    "+strings.TrimSuffix(strings.TrimPrefix(tc.want, "Usage: "), " [flags]")); tc.env == "river gc" && n < 5 {
			t.Errorf("%s=%q: only %d examples name the program:\n%s", ProgEnv, tc.env, n, help)
		}
	}
}
