package main

import (
	"slices"
	"strings"
	"testing"
)

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

// TestHelpExamplesJapanese: --help in Japanese shows the same example
// commands as in English, with no English comment left.
func TestHelpExamplesJapanese(t *testing.T) {
	cmds := func(s string) []string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			c, _, _ := strings.Cut(l, "#")
			out = append(out, strings.TrimSpace(c))
		}
		return out
	}
	if e, j := cmds(examples), cmds(examplesJapanese); !slices.Equal(e, j) {
		t.Errorf("commands differ:\nen %q\nja %q", e, j)
	}
	for _, w := range []string{"list what would go", "delete", "also", "reproduce"} {
		if strings.Contains(examplesJapanese, "# "+w) {
			t.Errorf("Japanese examples keep the English comment %q", w)
		}
	}
}
