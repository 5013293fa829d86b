package render

import (
	"io"
	"strconv"
	"strings"
)

// mergedIssues is the findings of every document in input order.
func mergedIssues(docs []Document, lang Lang) []Issue {
	out := []Issue{}
	for i := range docs {
		out = append(out, Issues(&docs[i], lang)...)
	}
	return out
}

// uniqueIDs makes the ids of issues unique: a repeat gets "-2", "-3", …
// in order.
func uniqueIDs(issues []Issue) []Issue {
	seen := map[string]int{}
	for i := range issues {
		seen[issues[i].ID]++
		if n := seen[issues[i].ID]; n > 1 {
			issues[i].ID += "-" + strconv.Itoa(n)
		}
	}
	return issues
}

func mergedNotes(docs []Document, lang Lang) string {
	notes := make([]string, 0, len(docs))
	for i := range docs {
		if n := Notes(&docs[i], lang); n != "" {
			notes = append(notes, n)
		}
	}
	return strings.Join(notes, "\n")
}

// MergedFindings writes exactly one River Review output.schema.json
// document for all docs: every document's findings, notes joined in order,
// and the decision River Review's scoring gives the whole.
func MergedFindings(w io.Writer, docs []Document, lang Lang) error {
	return MergedFindingsWith(w, docs, nil, lang)
}

// MergedArtifact writes exactly one Review Artifact for all docs. Its
// timestamp is the latest `now` of the judged documents; when none was
// judged (every document failed the gate) its status is "error" and its
// timestamp the epoch. The skill's debug entry holds the worst status
// (no_review, then handoff, then ok) and every document's own entry.
func MergedArtifact(w io.Writer, docs []Document, lang Lang) error {
	return MergedArtifactWith(w, docs, nil, lang)
}

// MergedArtifactWith is MergedArtifact for a river gc run: the scopes'
// documents, then river gc's own warnings and errors.
func MergedArtifactWith(w io.Writer, docs []Document, extra []RunFinding, lang Lang) error {
	a := newArtifact(withExtra(mergedIssues(docs, lang), extra, lang))
	sd := skillDebug{Status: "ok", Notes: mergedNotes(docs, lang), Questions: []debugQuestion{},
		Documents: make([]skillDebug, len(docs))}
	var latest *int64
	for i := range docs {
		d := docDebug(&docs[i], lang)
		sd.Documents[i] = d
		sd.Questions = append(sd.Questions, d.Questions...)
		if rank(d.Status) > rank(sd.Status) {
			sd.Status = d.Status
		}
		if d.Now != nil && (latest == nil || *d.Now > *latest) {
			latest = d.Now
		}
	}
	a.Debug.Skill = sd
	if latest == nil {
		a.Status, a.Timestamp = "error", Timestamp(0)
	} else {
		sd.Now = latest
		a.Debug.Skill.Now, a.Timestamp = latest, Timestamp(*latest)
	}
	return encodeLine(w, a)
}

func rank(status string) int {
	switch status {
	case "no_review":
		return 2
	case "handoff":
		return 1
	}
	return 0
}
