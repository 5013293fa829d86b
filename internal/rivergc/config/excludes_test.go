//go:build linux

package config

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/plangate-gc/plangate-gc/render"
)

// TestNormalizeExclude pins SPEC B5's normalization: what a pattern
// becomes, and which patterns are refused with which catalog entry.
func TestNormalizeExclude(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "artifacts"), 0o755); err != nil {
		t.Fatal(err)
	}
	roots := localNames(root)
	for _, c := range []struct{ in, want, key string }{
		{"./.river/memory/snapshots/**", "/.river/memory/snapshots/**", ""},
		{"././a", "/a", ""},
		{"!./a", "!/a", ""},
		{root + "/.river/memory/keep/**", "/.river/memory/keep/**", ""},
		{"/artifacts/keep/**", "/artifacts/keep/**", ""}, // gitignore's anchor
		{"/nowhere-at-all/x", "/nowhere-at-all/x", ""},   // exists nowhere: gitignore's anchor
		{"**/*.tmp", "**/*.tmp", ""},
		{`\#literal`, `\#literal`, ""},
		{`a\*b`, `a\*b`, ""},
		{"/etc/passwd", "", "gc-cfg-exclude-outside"},
		{"../x", "", "gc-cfg-exclude-dotdot"},
		{"a/../../x", "", "gc-cfg-exclude-dotdot"},
		{`.river\memory\x`, "", "gc-cfg-exclude-backslash"},
		{`C:\work\x`, "", "gc-cfg-exclude-backslash"},
		{"./", "", "gc-cfg-exclude-root"},
		{root, "", "gc-cfg-exclude-root"},
	} {
		got, err := normalizeExclude(c.in, roots)
		var ce *Error
		switch {
		case c.key == "" && (err != nil || got != c.want):
			t.Errorf("%q: got %q, %v; want %q", c.in, got, err, c.want)
		case c.key != "" && (!errors.As(err, &ce) || ce.Key != c.key):
			t.Errorf("%q: got %q, %v; want the config error %s", c.in, got, err, c.key)
		case c.key != "" && ce.Words(render.Japanese) == ce.Words(render.English):
			t.Errorf("%q: the Japanese words are the English ones", c.in)
		}
	}
}

// TestSuggestScope pins the "did you mean" of unknown scope names.
func TestSuggestScope(t *testing.T) {
	for in, want := range map[string]string{
		"memroy": "memory", "Memory": "memory", "eval": "evals", "tmpp": "tmp", "al": "all",
		"review-artifact": "review-artifacts", "memory-entry": "memory-entries", "zzzzzz": "", "x": "",
	} {
		if got := suggest(in, true); got != want {
			t.Errorf("suggest(%q) = %q, want %q", in, got, want)
		}
	}
	if got := suggest("al", false); got != "" {
		t.Errorf(`suggest("al", false) = %q: "all" is no scope of a retention flag`, got)
	}
}
