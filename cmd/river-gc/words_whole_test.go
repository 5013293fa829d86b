//go:build linux

package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/gitignore"
	"github.com/plangate-gc/plangate-gc/render"
)

// TestEveryPatternErrorIsWhole (SPEC B6): every message of the
// gc-cfg-pattern- family the catalog holds, worded for the pattern error
// of its code, is whole in both languages and names the pattern.
func TestEveryPatternErrorIsWhole(t *testing.T) {
	keys := render.Keys("gc-cfg-pattern-")
	if len(keys) == 0 {
		t.Fatal("no gc-cfg-pattern- messages in the catalog")
	}
	for _, key := range keys {
		pat := &gitignore.PatternError{Pattern: "pat", Code: gitignore.Code(strings.TrimPrefix(key, "gc-cfg-pattern-")), Offset: 3}
		for _, lang := range []render.Lang{render.Japanese, render.English} {
			if s := causeWords(pat, lang); strings.Contains(s, "%!") || !strings.Contains(s, `"pat"`) {
				t.Errorf("%s (%s): %q", key, lang, s)
			}
		}
	}
}

// TestBadExcludesAreWordedWhole (issue 24): `--exclude '#x'` ended in
// "%!(EXTRA string=0)"; every malformed pattern a shell can pass is a
// whole sentence in both languages.
func TestBadExcludesAreWordedWhole(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	root := t.TempDir()
	for _, pattern := range []string{"#x", `a\`, "[a", " \t"} {
		for _, lang := range []string{"ja", "en"} {
			out, err := exec.Command(bin, "--root", root, "--lang", lang, "--exclude", pattern).CombinedOutput()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || strings.Contains(string(out), "%!") || !strings.Contains(string(out), "--exclude") {
				t.Errorf("--exclude %q (%s): %v\n%s", pattern, lang, err, out)
			}
		}
	}
}
