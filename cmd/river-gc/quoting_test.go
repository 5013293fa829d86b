//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// rawHazards are what must never reach a terminal from a name or a
// pattern: ESC (clear screen, set title), BEL, a carriage return, a bidi
// override and a zero-width space.
var rawHazards = []string{"\x1b", "\a", "\r", "\u202e", "\u200b"}

// TestNamesAndPatternsNeverReachATerminalRaw (SPEC B4): --debug lines,
// the unused-exclude warning and error lines quote what a file name or a
// pattern holds, and a newline in a name cannot forge a line.
func TestNamesAndPatternsNeverReachATerminalRaw(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	root := memDir(t)
	dir := filepath.Join(root, ".river", "tmp")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"clear\x1b[2J", "forged\ndebug: x: remove", "bidi\u202etxt.exe", "zero\u200bwidth", "bell\a\r"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(args ...string) (string, int) {
		cmd := exec.Command(bin, append([]string{"--root", root, "--now", future}, args...)...)
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		return string(out), code
	}
	check := func(what, out string) {
		t.Helper()
		for _, h := range rawHazards {
			if strings.Contains(out, h) {
				t.Errorf("%s: raw %q reached the output:\n%s", what, h, out)
			}
		}
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "debug: x") {
				t.Errorf("%s: a name forged the line %q", what, line)
			}
		}
	}
	out, code := run("--debug", "--exclude", "pat\x1b]0;owned\a", "--exclude", "bidi\u202e")
	if code != 0 || !strings.Contains(out, "debug: ") || !strings.Contains(out, `\x1b`) {
		t.Errorf("--debug: exit %d, want 0 with quoted debug lines:\n%s", code, out)
	}
	check("--debug and unused excludes", out)
	for _, quiet := range [][]string{nil, {"--quiet"}} {
		out, code = run(append(quiet, "--exclude", "pat\x1bc")...)
		if code != 0 || !strings.Contains(out, "pat") {
			t.Errorf("%v: the unused-exclude warning is missing:\n%s", quiet, out)
		}
		check("unused exclude", out)
	}
	out, code = run("--json", "--output-file", filepath.Join(root, ".river/memory/x\x1b[2J.json"))
	if code != 2 {
		t.Errorf("--output-file in a scope: exit %d, want 2:\n%s", code, out)
	}
	check("config error", out)
	out, _ = run("--explain", ".river/tmp/clear\x1b[2J", "--explain", ".river/tmp/bidi\u202etxt.exe")
	check("--explain", out)
}
