//go:build linux

package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/text/width"
)

// TestJapaneseHelpFitsTheTerminal (issue 24; decision 244): river-gc's
// Japanese --help keeps every line within the terminal's width (COLUMNS)
// in columns, a wide character counting two, where kong alone wrapped
// only at spaces and ran on to twice the width; the English help is
// kong's own. A URL alone on its line is the one exception.
func TestJapaneseHelpFitsTheTerminal(t *testing.T) {
	t.Parallel()
	bin, err := exec.LookPath("river-gc")
	if err != nil {
		t.Fatal(err)
	}
	for _, columns := range []int{80, 60} {
		cmd := exec.Command(bin, "--help", "--lang", "ja")
		cmd.Env = append(os.Environ(), "COLUMNS="+map[int]string{80: "80", 60: "60"}[columns])
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.Lines(string(out)) {
			n := 0
			for _, r := range strings.TrimSuffix(line, "\n") {
				n++
				if k := width.LookupRune(r).Kind(); k == width.EastAsianWide || k == width.EastAsianFullwidth {
					n++
				}
			}
			// A URL alone on its line cannot be broken (SPEC B9: --help
			// links the docs by URL); any other line must fit.
			if url := strings.TrimSpace(line); n > columns && !(strings.HasPrefix(url, "https://") && !strings.Contains(url, " ")) {
				t.Errorf("COLUMNS=%d: a line of %d columns: %q", columns, n, line)
			}
		}
		if !strings.Contains(string(out), "実際に削除します。") {
			t.Errorf("COLUMNS=%d: not the Japanese help:\n%s", columns, out)
		}
	}
}
