package render

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/plangate-gc/plangate-gc/skill"
)

// AggregateAbove is the number of REMOVEs of one reason in one document
// above which they are reported as one finding (count, total size, and every
// path in its evidence) instead of one finding each, so that River Review's
// pull-request comment stays within GitHub's 65,536-character limit.
const AggregateAbove = 20

// The severities of River Review's output schema that our findings use.
const (
	sevCritical = "critical" // the skill could not judge, or handed off
	sevMajor    = "major"    // a warning or an advisory question
	sevMinor    = "minor"    // a REMOVE
)

// finding is one verdict worded for River Review; the JSON finding (Issue)
// and the review line are two renderings of it. Nothing in kind, file,
// title or the message built from kind changes while the verdict holds:
// ages, ranks and running sums live in evidence and line only.
type finding struct {
	kind     string // catalog kind: remove-age, guard-exclude, question-…, no-review
	file     string
	idExtra  string // distinguishes findings of one kind on one file
	severity string
	title    string
	subject  string   // "scope <s>" for a finding about a scope, not a file; starts title and message
	evidence []string // the JSON evidence
	line     string   // the review line's evidence: names no file
	many     bool     // an aggregate of more than AggregateAbove REMOVEs
	words    string   // the why-/fix- catalog kind when not kind itself
}

// IssueID is the stable id of a finding: a short hash of the skill, the
// rule and the path, never of order or clock, so the same file keeps the
// same id from run to run.
func IssueID(ruleID, path string) string {
	sum := sha256.Sum256([]byte(Skill + "|" + ruleID + "|" + path))
	return "pgc-" + hex.EncodeToString(sum[:8])
}

// Issues returns the findings of d: the NO_REVIEW (critical), or each
// warning (major), each question (critical when it blocks, major when
// advisory), then the REMOVEs (minor): one per path, or one per reason
// above AggregateAbove.
func Issues(d *Document, lang Lang) []Issue {
	fs := findings(d, lang)
	out := make([]Issue, len(fs))
	for i, f := range fs {
		out[i] = f.issue(lang)
	}
	return out
}

func (f *finding) rule() string { return RulePrefix + f.kind }

// whyFix words why f matters and what to do about it.
func (f *finding) whyFix(lang Lang) (why, fix string) {
	words := f.kind
	switch {
	case f.many:
		words = "many"
	case f.words != "":
		words = f.words
	}
	return msg(lang, "why-"+words), msg(lang, "fix-"+words)
}

func (f *finding) message(lang Lang) string {
	why, fix := f.whyFix(lang)
	return f.prefix() + why + " " + fix
}

// prefix starts the title and message of a finding about a whole scope,
// so that two scopes' findings on one logical file differ in what River
// Review fingerprints.
func (f *finding) prefix() string {
	if f.subject == "" {
		return ""
	}
	return f.subject + ": "
}

func (f *finding) issue(lang Lang) Issue {
	id := f.file
	if f.idExtra != "" {
		id += "|" + f.idExtra
	}
	return Issue{ID: IssueID(f.rule(), id), RuleID: f.rule(), Title: f.prefix() + f.title, Message: f.message(lang),
		Severity: f.severity, Phase: Phase, File: f.file, Confidence: "high", Status: "open",
		Evidence: f.evidence, Reviewer: Skill}
}

func findings(d *Document, lang Lang) []finding {
	if d.Gate != nil {
		ev := make([]string, len(d.Gate.Problems))
		for i, p := range d.Gate.Problems {
			ptr := p.Pointer
			if ptr == "" {
				ptr = "(document)"
			}
			ev[i] = ptr + ": " + p.Message
		}
		return []finding{{kind: "no-review", file: "(no-review)", severity: sevCritical,
			title: msg(lang, keyTitlePrefix+"no-review"), evidence: ev,
			line: msg(lang, "ev-no-review", itoa(len(ev)))}}
	}
	r := &d.Result
	out := make([]finding, 0, len(r.Warnings)+len(r.Questions)+min(len(r.Removed), 64))
	for _, w := range r.Warnings {
		out = append(out, warningFinding(w, r.Scope, lang))
	}
	for _, q := range r.Questions {
		out = append(out, questionFinding(q, r.Scope, lang))
	}
	out = appendRemovals(out, r, lang)
	if d.Deleted {
		for i := range out {
			if reason, ok := strings.CutPrefix(out[i].kind, "remove-"); ok && !out[i].many {
				out[i].words = "deleted-" + reason
			}
		}
	}
	return out
}

func warningFinding(w skill.Warning, scope skill.Scope, lang Lang) finding {
	f := finding{kind: string(w.Kind), file: w.Path, severity: sevMajor,
		title: msg(lang, keyTitlePrefix+string(w.Kind)), evidence: []string{WarningMessage(w, scope, lang)},
		line: msg(lang, "ev-guard")}
	switch w.Kind {
	case skill.WarnMtimeMissing, skill.WarnMtimeInconsistent, skill.WarnDuplicate:
		f.file = w.First // the example the message names
		f.line = msg(lang, "ev-count", itoa(w.N))
	case skill.WarnAggressive:
		f.file = "(warning)" // no one file: the text protocol's logical name
		f.subject = "scope " + string(scope)
		f.line = msg(lang, "ev-aggressive", itoa(w.Remove), itoa(w.Total))
	}
	return f
}

func questionFinding(q skill.Question, scope skill.Scope, lang Lang) finding {
	f := finding{kind: "question-" + string(q.Kind), file: "(question)", severity: sevCritical,
		subject: "scope " + string(scope), evidence: []string{QuestionMessage(q, scope, lang)}}
	switch q.Kind {
	case skill.QuestionInvalidRetention:
		f.idExtra = q.Key
		f.subject += ", " + q.Key
		f.title = msg(lang, keyTitlePrefix+f.kind, q.Key, q.Literal)
		f.line = msg(lang, "ev-invalid-key", q.Key)
	case skill.QuestionUnreliableMtime:
		f.title = msg(lang, keyTitlePrefix+f.kind)
		f.line = msg(lang, "ev-unreliable-mtime", itoa(q.N), itoa(q.Total))
	default: // guards not supplied: advisory, the judgement stands
		f.file, f.severity = q.Path, sevMajor
		f.title = msg(lang, keyTitlePrefix+f.kind)
		f.line = msg(lang, "ev-guards", string(scope))
	}
	return f
}

// appendRemovals appends the REMOVE findings in path order; a reason with
// more than AggregateAbove removals is one finding, placed at its first
// path.
func appendRemovals(out []finding, r *skill.Result, lang Lang) []finding {
	n := map[skill.Reason]int{}
	for _, dec := range r.Removed {
		n[dec.Reason]++
	}
	done := map[skill.Reason]bool{}
	for _, dec := range r.Removed {
		kind := "remove-" + string(dec.Reason)
		if n[dec.Reason] > AggregateAbove {
			if !done[dec.Reason] {
				done[dec.Reason] = true
				out = append(out, aggregate(r, dec.Reason, n[dec.Reason], lang))
			}
			continue
		}
		out = append(out, finding{kind: kind, file: dec.Path, severity: sevMinor,
			title: msg(lang, keyTitlePrefix+kind), evidence: removeEvidence(dec), line: RemoveMessage(dec, lang)})
	}
	return out
}

func removeEvidence(dec skill.Decision) []string {
	ev := []string{"reason=" + string(dec.Reason), "sizeBytes=" + strconv.FormatUint(dec.SizeBytes, 10)}
	switch dec.Reason {
	case skill.ReasonAge:
		ev = append(ev, "mtimeAge="+strconv.FormatInt(dec.MtimeAge, 10))
	case skill.ReasonCount:
		ev = append(ev, "rank="+strconv.Itoa(dec.Rank))
	default:
		ev = append(ev, "cumulativeBytes="+dec.Cumulative.String())
	}
	return ev
}

// aggregate is the one finding for the n REMOVEs of reason in r: count and
// total size first, then every path with its evidence.
func aggregate(r *skill.Result, reason skill.Reason, n int, lang Lang) finding {
	var total skill.Bytes
	ev := make([]string, 2, n+2)
	for _, dec := range r.Removed {
		if dec.Reason == reason {
			total = total.Add(dec.SizeBytes)
			ev = append(ev, dec.Path+": "+RemoveMessage(dec, lang))
		}
	}
	ev[0], ev[1] = "count="+itoa(n), "sizeBytes="+total.String()
	kind := "remove-" + string(reason)
	return finding{kind: kind, file: "(" + string(r.Scope) + ")", severity: sevMinor, many: true,
		title:    msg(lang, keyTitlePrefix+"remove-many", msg(lang, keyTitlePrefix+kind), itoa(n), string(r.Scope)),
		evidence: ev, line: msg(lang, "ev-many", itoa(n), total.String())}
}
