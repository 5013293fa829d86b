package render

import (
	"io"
	"time"
)

// ArtifactSkillID is the registry id of this skill in River Review
// (integrations/river-review/SKILL.md), named in an artifact's plan.
// It is our own: upstream's registry already has
// rr-upstream-plangate-gc-deterministic-001 (the prompt skill), and two
// skills with one id shadow each other.
const ArtifactSkillID = "rr-upstream-plangate-gc-binary-001"

// The range RFC 3339 can write: years 0000 to 9999.
var (
	minTimestamp = time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	maxTimestamp = time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC).Unix()
)

// Timestamp writes epoch seconds as RFC 3339 UTC; a value beyond years
// 0000–9999 is clamped to that range (the skill's own `now` stays in the
// artifact's debug section, so nothing is lost).
func Timestamp(epoch int64) string {
	epoch = min(max(epoch, minTimestamp), maxTimestamp)
	return time.Unix(epoch, 0).UTC().Format(time.RFC3339)
}

type skillRef struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Phase string `json:"phase"`
}

type plan struct {
	SelectedSkills []skillRef `json:"selectedSkills"`
}

type debugQuestion struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// skillDebug is what an artifact cannot say in its own fields: the skill's
// status (ok, handoff, no_review), its scope, input clock and questions.
type skillDebug struct {
	Status    string          `json:"status"`
	Scope     string          `json:"scope,omitempty"`
	Now       *int64          `json:"now,omitempty"`
	Notes     string          `json:"notes"`
	Questions []debugQuestion `json:"questions"`
	// Documents is set on a merged artifact: each input document's own.
	Documents []skillDebug `json:"documents,omitempty"`
}

type artifactDebug struct {
	Skill skillDebug `json:"plangate-gc-deterministic"`
}

type artifact struct {
	Version   string        `json:"version"`
	Timestamp string        `json:"timestamp"`
	Phase     string        `json:"phase"`
	Status    string        `json:"status"`
	Plan      plan          `json:"plan"`
	Decision  string        `json:"decision"`
	Findings  []Issue       `json:"findings"`
	Debug     artifactDebug `json:"debug"`
}

// Artifact writes one River Review Review Artifact for d, on one line. Its
// timestamp is the input's `now`, never the clock; a document that failed
// the gate has no trustworthy `now`, so it gets status "error" and the
// epoch (1970-01-01T00:00:00Z) as a fixed stand-in. A handoff is a
// completed run (status "ok") whose decision requires a human.
func Artifact(w io.Writer, d Document, lang Lang) error {
	issues := Issues(&d, lang)
	a := newArtifact(issues)
	a.Debug.Skill = docDebug(&d, lang)
	if d.Gate != nil {
		a.Status, a.Timestamp = "error", Timestamp(0)
		return encodeLine(w, a)
	}
	a.Timestamp = Timestamp(d.Input.Now)
	return encodeLine(w, a)
}

func newArtifact(issues []Issue) artifact {
	return artifact{
		Version:  "1",
		Phase:    Phase,
		Status:   "ok",
		Plan:     plan{SelectedSkills: []skillRef{{ID: ArtifactSkillID, Name: Skill, Phase: Phase}}},
		Decision: ScoreDecision(issues),
		Findings: issues,
	}
}

// docDebug is the skill's own account of d: status, scope, now, notes and
// questions.
func docDebug(d *Document, lang Lang) skillDebug {
	sd := skillDebug{Status: verdictStatus(d), Notes: Notes(d, lang), Questions: []debugQuestion{}}
	if d.Gate != nil {
		return sd
	}
	now := d.Input.Now
	sd.Scope, sd.Now = string(d.Result.Scope), &now
	for _, q := range d.Result.Questions {
		sd.Questions = append(sd.Questions,
			debugQuestion{Kind: string(q.Kind), Message: QuestionMessage(q, d.Result.Scope, lang)})
	}
	return sd
}
