package main

import (
	"slices"
	"strings"
	"testing"
)

// TestHelpExamplesJapanese: --help in Japanese shows the same example
// commands as in English, with no English comment left.
func TestHelpExamplesJapanese(t *testing.T) {
	t.Parallel()
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
