package render

import (
	"testing"

	"github.com/plangate-gc/plangate-gc/skill"
)

// TestIssueIDIsStable pins the id scheme: a River Review consumer tracks a
// finding across runs by it, so changing it is a breaking change.
func TestIssueIDIsStable(t *testing.T) {
	a := IssueID("plangate-gc-deterministic/remove-age", ".river/memory/b.json")
	if a != "pgc-e87868dfe38a0bbc" {
		t.Errorf("IssueID = %s; the id scheme changed", a)
	}
	if IssueID("plangate-gc-deterministic/remove-count", ".river/memory/b.json") == a {
		t.Error("rule does not enter the id")
	}
}

func TestTimestamp(t *testing.T) {
	for epoch, want := range map[int64]string{
		1764374400:        "2025-11-29T00:00:00Z",
		-1:                "1969-12-31T23:59:59Z",
		9007199254740991:  "9999-12-31T23:59:59Z",
		-9007199254740991: "0000-01-01T00:00:00Z",
	} {
		if got := Timestamp(epoch); got != want {
			t.Errorf("Timestamp(%d) = %s, want %s", epoch, got, want)
		}
	}
}

func TestDecision(t *testing.T) {
	for _, tc := range []struct {
		res  skill.Result
		want string
	}{
		{skill.Result{Status: skill.StatusOK, Removed: []skill.Decision{{Path: "a"}}}, DecisionApprove},
		{skill.Result{Status: skill.StatusOK, Warnings: []skill.Warning{{Kind: skill.WarnAggressive}}}, DecisionRecommended},
		{skill.Result{Status: skill.StatusOK, Questions: []skill.Question{{Kind: skill.QuestionGuardsNotSupplied}}}, DecisionRecommended},
		{skill.Result{Status: skill.StatusHandoff, Questions: []skill.Question{{Kind: skill.QuestionInvalidRetention, Key: "days"}}}, DecisionRequired},
		{skill.Result{Status: skill.StatusOK, Removed: make([]skill.Decision, 5)}, DecisionApprove},
		// River Review's scoring: six minor findings bring the overall score below 90.
		{skill.Result{Status: skill.StatusOK, Removed: make([]skill.Decision, 6)}, DecisionRecommended},
	} {
		if got := Decision(&Document{Result: tc.res}); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.res, got, tc.want)
		}
	}
}
