package render

import (
	"io"
)

// RunFinding is a finding of a river gc run that no skill document holds:
// one of river gc's own warnings (major) or errors (critical), already
// worded by its caller (package report) for the evidence.
type RunFinding struct {
	// Kind is river gc's warning kind, or "error".
	Kind string
	// File is the path concerned, or "(<scope>)" / "(river-gc)".
	File     string
	Error    bool
	Evidence string
}

// runFindings turns river gc's own warnings and errors into findings; more
// than AggregateAbove errors become one finding with every error in its
// evidence.
func runFindings(extra []RunFinding, lang Lang) []finding {
	var out []finding
	var errs []string
	for _, e := range extra {
		if e.Error {
			errs = append(errs, e.File+": "+e.Evidence)
		}
	}
	aggregateErrors := len(errs) > AggregateAbove
	for _, e := range extra {
		kind, sev, words := "river-gc-"+e.Kind, sevMajor, "river-gc-warning"
		if e.Error {
			kind, sev, words = "river-gc-error", sevCritical, ""
			if aggregateErrors {
				continue
			}
		}
		out = append(out, finding{kind: kind, file: e.File, severity: sev, words: words,
			title: msg(lang, keyTitlePrefix+kind), evidence: []string{e.Evidence}, line: msg(lang, "ev-count", "1")})
	}
	if aggregateErrors {
		out = append(out, finding{kind: "river-gc-error", file: "(river-gc)", severity: sevCritical,
			title:    msg(lang, keyTitlePrefix+"river-gc-errors"), // the count is evidence: a title that held it changed the fingerprint
			evidence: errs, line: msg(lang, "ev-count", itoa(len(errs)))})
	}
	return out
}

// MergedFindingsWith is MergedFindings for a river gc run: the scopes'
// documents, then river gc's own warnings and errors.
func MergedFindingsWith(w io.Writer, docs []Document, extra []RunFinding, lang Lang) error {
	issues := withExtra(mergedIssues(docs, lang), extra, lang)
	s := summary{Notes: mergedNotes(docs, lang)}
	s.count(issues)
	return encodeLine(w, findingsDoc{Issues: issues, Summary: s, Decision: ScoreDecision(issues)})
}

func withExtra(issues []Issue, extra []RunFinding, lang Lang) []Issue {
	for _, f := range runFindings(extra, lang) {
		issues = append(issues, f.issue(lang))
	}
	return uniqueIDs(issues)
}
