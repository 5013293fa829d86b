package render

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/plangate-gc/plangate-gc/skill"
)

// Format names an output form of plangate-gc.
type Format string

// The output forms: review lines (SPEC A10), the skill's JSON (A11), and
// River Review's findings document and Review Artifact (SPEC Part C).
const (
	FormatText     Format = "text"
	FormatJSON     Format = "json"
	FormatFindings Format = "findings"
	FormatArtifact Format = "artifact"
)

// Writer returns the renderer of f; an unknown format renders text.
func Writer(f Format) func(io.Writer, Document, Lang) error {
	switch f {
	case FormatJSON:
		return JSON
	case FormatFindings:
		return Findings
	case FormatArtifact:
		return Artifact
	case FormatReview:
		return Review
	}
	return Text
}

// Phase is the SDLC phase River Review files this skill under (upstream's
// registry lists it as an upstream skill).
const Phase = "upstream"

// RulePrefix starts every ruleId: "plangate-gc-deterministic/<rule>".
const RulePrefix = Skill + "/"

// Issue is one finding of River Review's output.schema.json (and the
// Review Artifact's findings[]), fields in the schema's order.
type Issue struct {
	ID         string   `json:"id"`
	RuleID     string   `json:"ruleId"`
	Title      string   `json:"title"`
	Message    string   `json:"message"`
	Severity   string   `json:"severity"`
	Phase      string   `json:"phase"`
	File       string   `json:"file"`
	Confidence string   `json:"confidence"`
	Status     string   `json:"status"`
	Evidence   []string `json:"evidence,omitempty"`
	Reviewer   string   `json:"reviewer"`
}

// The River Review decision vocabulary (output.schema.json, review-artifact).
const (
	DecisionApprove     = "auto-approve"
	DecisionRecommended = "human-review-recommended"
	DecisionRequired    = "human-review-required"
)

// verdictStatus is the skill status of SPEC A11 for d.
func verdictStatus(d *Document) string {
	if d.Gate != nil {
		return "no_review"
	}
	return string(d.Result.Status)
}

// Decision is River Review's verdict on d's findings, as River Review's own
// scoring derives it (ScoreDecision): a document the skill could not judge
// or handed off carries a critical finding, so a human must decide;
// warnings and advisory questions are major, so a human should look; a
// handful of REMOVEs (minor) is auto-approved, six or more are not.
func Decision(d *Document) string { return ScoreDecision(Issues(d, Japanese)) }

// Notes is the run-level text of d: the summary line, the handoff status
// and every question; or the NO_REVIEW line and the gate's reasons.
func Notes(d *Document, lang Lang) string {
	var lines []string
	if d.Gate != nil {
		lines = append(lines, NoReview)
		for _, p := range d.Gate.Problems {
			lines = append(lines, p.Pointer+": "+p.Message)
		}
		return strings.Join(lines, "\n")
	}
	r := &d.Result
	if r.Evaluated {
		c := r.Counts
		lines = append(lines, msg(lang, keySummary, string(r.Scope),
			itoa(c.Keep), itoa(c.Remove), itoa(c.HardGuarded), itoa(c.Excluded)))
	}
	if r.Status == skill.StatusHandoff {
		lines = append(lines, msg(lang, keyHandoffNote))
	}
	for _, q := range r.Questions {
		lines = append(lines, msg(lang, keyGCQuestion)+": "+QuestionMessage(q, r.Scope, lang))
	}
	return strings.Join(lines, "\n")
}

type severityCounts struct {
	Info     int `json:"info"`
	Minor    int `json:"minor"`
	Major    int `json:"major"`
	Critical int `json:"critical"`
}

type phaseCounts struct {
	Upstream   int `json:"upstream"`
	Midstream  int `json:"midstream"`
	Downstream int `json:"downstream"`
}

type summary struct {
	BySeverity severityCounts `json:"issueCountBySeverity"`
	ByPhase    phaseCounts    `json:"issueCountByPhase"`
	Notes      string         `json:"notes"`
}

// count fills the per-severity and per-phase counts of issues.
func (s *summary) count(issues []Issue) {
	for _, is := range issues {
		switch is.Severity {
		case "critical":
			s.BySeverity.Critical++
		case "major":
			s.BySeverity.Major++
		case "minor":
			s.BySeverity.Minor++
		default:
			s.BySeverity.Info++
		}
	}
	s.ByPhase.Upstream += len(issues)
}

type findingsDoc struct {
	Issues   []Issue `json:"issues"`
	Summary  summary `json:"summary"`
	Decision string  `json:"decision"`
}

// Findings writes one compact River Review output.schema.json document
// (issues, summary, decision) for d, on one line.
func Findings(w io.Writer, d Document, lang Lang) error {
	issues := Issues(&d, lang)
	s := summary{Notes: Notes(&d, lang)}
	s.count(issues)
	return encodeLine(w, findingsDoc{Issues: issues, Summary: s, Decision: ScoreDecision(issues)})
}

// encodeLine writes v as one compact JSON line, leaving <, > and & as is.
func encodeLine(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
