//go:build linux

package report

import (
	"io"

	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/render"
	"github.com/plangate-gc/plangate-gc/skill"
)

// RunFindings writes one River Review findings document (artifact: one
// Review Artifact) for a whole river gc run (SPEC C2): per scope, the
// engine's questions and what the run removed (in force mode, what it
// deleted), then river gc's own warnings (major) and errors (critical).
// The engine's warnings give way to river gc's, which say the same in
// river gc's terms (decision 30), so the findings agree with the summary.
func RunFindings(w io.Writer, o gc.Outcome, r skill.Retention, now int64, lang render.Lang, artifact bool) error {
	docs := make([]render.Document, 0, len(o.Scopes))
	for _, s := range o.Scopes {
		res := s.Result
		res.Removed, res.Warnings = s.Removed, nil
		docs = append(docs, render.Document{Input: skill.Input{Scope: s.Scope, Retention: r, Now: now}, Result: res,
			Deleted: o.Mode == gc.Force})
	}
	var extra []render.RunFinding
	for _, wa := range o.Warnings {
		file := wa.Path
		switch wa.Kind {
		case gc.WarnAggressive:
			file = "(" + string(wa.Scope) + ")"
		case gc.WarnUnusedExclude:
			file = "(--exclude " + wa.Path + ")"
		}
		extra = append(extra, render.RunFinding{Kind: string(wa.Kind), File: file, Evidence: WarningText(wa, lang)})
	}
	for _, e := range o.Errors {
		extra = append(extra, render.RunFinding{Kind: "error", File: e.Path, Error: true, Evidence: ErrorText(e, lang)})
	}
	if artifact {
		return render.MergedArtifactWith(w, docs, extra, lang)
	}
	return render.MergedFindingsWith(w, docs, extra, lang)
}
