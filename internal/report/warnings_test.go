//go:build linux

package report

import (
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/render"
)

// TestEveryWarningKindHasWordsInBothLanguages (SPEC B3 "warnings
// name things the user can act on"): the leftover warning of a dry-run
// over a killed run's .river-gc-deleting.* files is printed as the bare
// word "leftover" (summary and JSON message, en and ja) because
// WarningText has no case and the catalog no gc-warn-leftover entry.
func TestEveryWarningKindHasWordsInBothLanguages(t *testing.T) {
	for _, k := range gc.WarningKinds() {
		for _, lang := range []render.Lang{render.English, render.Japanese} {
			w := gc.Warning{Kind: k, Scope: "memory", Path: ".river/memory/x.json", Target: "t", N: 1, Total: 1}
			if got := WarningText(w, lang); got == string(k) {
				t.Errorf("%s (%s): warning text is the bare kind %q", k, lang, got)
			}
		}
	}
}
