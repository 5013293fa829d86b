package render

import (
	"strconv"
	"testing"
)

// TestAggregatedErrorsKeepTheirIdentity (SPEC B7): the finding that stands
// for more than AggregateAbove errors says the same in its title and
// message whatever their count, so River Review's fingerprint (ruleId,
// file, the first characters of the message) keeps it from one run to the
// next; the count is evidence.
func TestAggregatedErrorsKeepTheirIdentity(t *testing.T) {
	for _, lang := range []Lang{Japanese, English} {
		var got []finding
		for _, n := range []int{AggregateAbove + 1, AggregateAbove + 9} {
			var extra []RunFinding
			for i := range n {
				extra = append(extra, RunFinding{Kind: "error", File: "f" + strconv.Itoa(i), Error: true, Evidence: "EIO"})
			}
			fs := runFindings(extra, lang)
			if len(fs) != 1 || len(fs[0].evidence) != n {
				t.Fatalf("%s: %d errors gave %d findings, want one with every error as evidence", lang, n, len(fs))
			}
			got = append(got, fs[0])
		}
		if got[0].title != got[1].title || got[0].message(lang) != got[1].message(lang) {
			t.Errorf("%s: the aggregated finding changes with its count: %q / %q", lang, got[0].title, got[1].title)
		}
		if got[0].line == got[1].line {
			t.Errorf("%s: the count is not in the evidence line: %q", lang, got[0].line)
		}
	}
}
