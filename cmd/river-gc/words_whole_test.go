//go:build linux

package main

import (
	"os/exec"
	"strings"
	"testing"
)

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
