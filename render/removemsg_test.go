package render

import (
	"testing"

	"github.com/plangate-gc/plangate-gc/skill"
)

// TestAppendRemoveMessageMatchesCatalog: the printer-free REMOVE wording
// is byte for byte what the catalog printer says, in every language
// (including an unknown one, which falls back to Japanese).
func TestAppendRemoveMessageMatchesCatalog(t *testing.T) {
	decisions := []skill.Decision{
		{Reason: skill.ReasonAge, SizeBytes: 9007199254740991, MtimeAge: -3},
		{Reason: skill.ReasonCount, SizeBytes: 0, Rank: 1000001},
		{Reason: skill.ReasonSize, SizeBytes: 7, Cumulative: skill.Bytes{}.Add(1 << 63).Add(1 << 63).Add(5)},
	}
	for _, lang := range []Lang{Japanese, English, Lang("xx")} {
		for _, d := range decisions {
			want := RemoveMessage(d, lang)
			if got := string(appendRemoveMessage([]byte("x"), d, lang)); got != "x"+want {
				t.Errorf("%s %s: got %q, want %q", lang, d.Reason, got, "x"+want)
			}
		}
	}
}
