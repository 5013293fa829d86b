//go:build linux

package config

import "testing"

// TestGlobOfKeepsExtension: the pattern suggested for a glob the shell
// expanded keeps the names' common folder and extension, so that
// `--exclude *.log` is answered with '*.log' rather than '*' (which would
// exclude everything).
func TestGlobOfKeepsExtension(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  string
	}{
		{[]string{"a.log", "b.log"}, "*.log"},
		{[]string{"a.log", "b.txt"}, "*"},
		{[]string{"artifacts/keep/x.json", "artifacts/keep/y.json"}, "artifacts/keep/*.json"},
		{[]string{"artifacts/keep/x", "artifacts/keep/sub/y"}, "artifacts/keep/*"},
		{[]string{"a", "b"}, "*"},
	} {
		if got := globOf(c.names); got != c.want {
			t.Errorf("globOf(%q) = %q, want %q", c.names, got, c.want)
		}
	}
}
