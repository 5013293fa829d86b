package render

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"strconv"
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

// IssueID is the stable id of a finding: a short hash of the skill, the
// rule and the path, never of order or clock, so the same file keeps the
// same id from run to run.
func IssueID(ruleID, path string) string {
	sum := sha256.Sum256([]byte(Skill + "|" + ruleID + "|" + path))
	return "pgc-" + hex.EncodeToString(sum[:8])
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

// Decision maps a judgement to River Review's verdict: the skill could not
// judge (no_review) or hands off → a human must decide; warnings or
// advisory questions → a human should look; otherwise the removals are the
// retention policy applied as configured.
func Decision(d *Document) string {
	switch {
	case d.Gate != nil, d.Result.Status == skill.StatusHandoff:
		return DecisionRequired
	case len(d.Result.Warnings) > 0 || len(d.Result.Questions) > 0:
		return DecisionRecommended
	}
	return DecisionApprove
}

// Issues returns the findings of d: each warning a major finding, then each
// REMOVE a minor finding on its path (no line: the path is the subject).
func Issues(d *Document, lang Lang) []Issue {
	if d.Gate != nil {
		return []Issue{}
	}
	r := &d.Result
	out := make([]Issue, 0, len(r.Warnings)+len(r.Removed))
	for _, w := range r.Warnings {
		rule := RulePrefix + string(w.Kind)
		file := w.Path
		switch w.Kind {
		case skill.WarnMtimeMissing, skill.WarnMtimeInconsistent, skill.WarnDuplicate:
			file = w.First // the example the message names
		case skill.WarnAggressive:
			file = "(warning)" // no one file: the text protocol's logical name
		}
		out = append(out, newIssue(rule, file, msg(lang, keyTitlePrefix+string(w.Kind)),
			WarningMessage(w, r.Scope, lang), "major", nil))
	}
	for _, dec := range r.Removed {
		rule := RulePrefix + "remove-" + string(dec.Reason)
		ev := []string{"reason=" + string(dec.Reason), "sizeBytes=" + strconv.FormatUint(dec.SizeBytes, 10)}
		switch dec.Reason {
		case skill.ReasonAge:
			ev = append(ev, "mtimeAge="+strconv.FormatInt(dec.MtimeAge, 10))
		case skill.ReasonCount:
			ev = append(ev, "rank="+strconv.Itoa(dec.Rank))
		default:
			ev = append(ev, "cumulativeBytes="+dec.Cumulative.String())
		}
		out = append(out, newIssue(rule, dec.Path, msg(lang, keyTitlePrefix+"remove-"+string(dec.Reason)),
			RemoveMessage(dec, lang), "minor", ev))
	}
	return out
}

func newIssue(rule, file, title, message, severity string, evidence []string) Issue {
	return Issue{ID: IssueID(rule, file), RuleID: rule, Title: title, Message: message,
		Severity: severity, Phase: Phase, File: file, Confidence: "high", Status: "open",
		Evidence: evidence, Reviewer: Skill}
}

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
	for _, is := range issues {
		if is.Severity == "major" {
			s.BySeverity.Major++
		} else {
			s.BySeverity.Minor++
		}
	}
	s.ByPhase.Upstream = len(issues)
	return encodeLine(w, findingsDoc{Issues: issues, Summary: s, Decision: Decision(&d)})
}

// encodeLine writes v as one compact JSON line, leaving <, > and & as is.
func encodeLine(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
