package render

import (
	"math"
	"regexp"
)

// The scoring below mirrors River Review's own deterministic scoring
// (src/lib/scoring/engine.mjs and rubric.mjs at c36106a9), so that the
// decision we write is the verdict River Review derives from our
// findings: five axes start at 100, each finding deducts by axis and
// severity, the overall score is the rounded mean, and the verdict
// follows the thresholds. TestDecisionMatchesUpstreamScoring runs
// upstream's scoreReview on every fixture to hold the two together.

// scoreAxes are River Review's axes in its order.
var scoreAxes = []string{"readability", "extensibility", "performance", "security", "maintainability"}

// axisPatterns classify a ruleId into an axis; the first match wins and
// maintainability is the fallback.
var axisPatterns = []struct {
	axis    string
	pattern *regexp.Regexp
}{
	{"security", regexp.MustCompile(`(?i)\b(sec|security|auth|authz|authn|injection|xss|csrf|crypto)`)},
	{"performance", regexp.MustCompile(`(?i)\b(perf|performance|n-?plus-?one|n1\b|slow|query|memory)`)},
	{"extensibility", regexp.MustCompile(`(?i)\b(arch|architecture|depend|layer|fat|coupling|boundary)`)},
	{"readability", regexp.MustCompile(`(?i)\b(read|readability|naming|complexity|style|clarity)`)},
	{"maintainability", regexp.MustCompile(`(?i)\b(test|coverage|maint|maintainability|doc|comment)`)},
}

// deductions per axis and severity (security weighs more).
var deductions = map[string]map[string]int{
	"security":        {"critical": 50, "major": 30, "minor": 15, "info": 5},
	"readability":     {"critical": 30, "major": 20, "minor": 10, "info": 3},
	"extensibility":   {"critical": 30, "major": 20, "minor": 10, "info": 3},
	"performance":     {"critical": 30, "major": 20, "minor": 10, "info": 3},
	"maintainability": {"critical": 30, "major": 20, "minor": 10, "info": 3},
}

func scoreAxis(ruleID string) string {
	for _, p := range axisPatterns {
		if p.pattern.MatchString(ruleID) {
			return p.axis
		}
	}
	return "maintainability"
}

// ScoreDecision is River Review's verdict for issues: human-review-required
// with any critical finding or an overall score below 70; auto-approve with
// an overall score of at least 90, security at least 95 and no critical or
// major finding; human-review-recommended otherwise.
func ScoreDecision(issues []Issue) string {
	scores := map[string]int{}
	for _, a := range scoreAxes {
		scores[a] = 100
	}
	var critical, major int
	for _, is := range issues {
		axis := scoreAxis(is.RuleID)
		scores[axis] = max(0, scores[axis]-deductions[axis][is.Severity])
		switch is.Severity {
		case "critical":
			critical++
		case "major":
			major++
		}
	}
	sum := 0
	for _, a := range scoreAxes {
		sum += scores[a]
	}
	// JavaScript's Math.round: halves round up.
	overall := int(math.Floor(float64(sum)/float64(len(scoreAxes)) + 0.5))
	switch {
	case critical > 0, overall < 70:
		return DecisionRequired
	case overall >= 90 && scores["security"] >= 95 && major == 0:
		return DecisionApprove
	}
	return DecisionRecommended
}
