//go:build linux

package command

import (
	"io"
	"os"
	"strings"

	"github.com/plangate-gc/plangate-gc/internal/report"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/render"
)

// Warnings on stderr (SPEC B9): --quiet hides the summary, never a
// warning. A --force run says what it is about to delete before the
// first deletion (gc.Ahead), and again in the summary; under GitHub
// Actions each of those is also a ::warning:: annotation.

// annotate reports whether the run is a GitHub Actions step, whose
// runner turns "::warning ...::" lines into annotations.
var annotate = func() bool { return os.Getenv("GITHUB_ACTIONS") == "true" }

// beforeDelete is gc.Config.BeforeDelete: the warnings about what is to
// go, on stderr, before anything goes.
func (c *command) beforeDelete(stderr io.Writer) func([]gc.Warning) {
	return func(ws []gc.Warning) {
		c.toldAhead = true
		var b strings.Builder
		for _, w := range ws {
			c.warning(&b, w, true)
		}
		io.WriteString(stderr, b.String()) //nolint:errcheck // the record reports a closed stderr
	}
}

// stderrWarnings writes, once the run is judged, the warnings stderr has
// not had yet: with --quiet every warning (the summary that holds them
// is hidden), else under GitHub Actions the annotations of the warnings
// about what goes (a dry-run's: --force told them before deleting).
func (c *command) stderrWarnings(stderr io.Writer, ws []gc.Warning) error {
	var b strings.Builder
	for _, w := range ws {
		if gc.Ahead(w.Kind) && c.toldAhead {
			continue
		}
		c.warning(&b, w, c.Quiet)
	}
	_, err := io.WriteString(stderr, b.String())
	return err
}

// warning writes one warning as stderr has it: the line (when plain),
// and its annotation under GitHub Actions when it is about what goes.
func (c *command) warning(b *strings.Builder, w gc.Warning, plain bool) {
	lang := render.Lang(c.Lang)
	text := report.WarningText(w, lang)
	if plain {
		b.WriteString(report.DisplayText(render.Message(lang, "gc-cli-warning", text)) + "\n")
	}
	if gc.Ahead(w.Kind) && annotate() {
		b.WriteString("::warning title=river-gc::" + annotationData(text) + "\n")
	}
}

// annotationData escapes a workflow command's message as GitHub's
// runner reads it back: %, CR and LF as %25, %0D and %0A.
func annotationData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}
