package render

import (
	"io"
	"strconv"
	"strings"

	"github.com/plangate-gc/plangate-gc/skill"
)

// NoReview is the exact gate-failure line of SPEC A1.
const NoReview = "NO_REVIEW: plangate-gc-deterministic — inventory / retention config が不足"

// Document is everything needed to render one input document: either a
// gate failure, or the gated input with its judgement.
type Document struct {
	Gate   *GateVerdict // set on NO_REVIEW; then Input and Result are unused
	Input  skill.Input
	Result skill.Result
	// Deleted says the REMOVEs were carried out (river gc --force), which
	// findings word as done rather than to do.
	Deleted bool
}

// Text writes the review lines of SPEC A10: summary, warnings, questions,
// then REMOVE lines; or the NO_REVIEW line. A path that River Review's line
// reader would not read back as itself is quoted (textpath.go).
func Text(w io.Writer, d Document, lang Lang) error {
	var b []byte
	if d.Gate != nil {
		b = append(b, NoReview+"\n"...)
		_, err := w.Write(b)
		return err
	}
	r := &d.Result
	if r.Evaluated {
		c := r.Counts
		b = line(b, "(summary):1: ", msg(lang, keySummary, string(r.Scope),
			itoa(c.Keep), itoa(c.Remove), itoa(c.HardGuarded), itoa(c.Excluded)))
		for _, wa := range r.Warnings {
			wa.Path, wa.First = textPath(wa.Path), textPath(wa.First)
			b = line(b, "(warning):1: [severity=major] ", WarningMessage(wa, r.Scope, lang))
		}
	}
	for _, q := range r.Questions {
		q.Path = textPath(q.Path)
		b = line(b, "(question):1: ", QuestionMessage(q, r.Scope, lang))
	}
	for _, dec := range r.Removed {
		b = appendTextPath(b, dec.Path)
		b = append(b, ":0: [severity=minor] "...)
		b = append(appendRemoveMessage(b, dec, lang), '\n')
		if len(b) > 1<<16 { // a million REMOVE lines are written, not held
			if _, err := w.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	_, err := w.Write(b)
	return err
}

func line(b []byte, prefix, text string) []byte {
	b = append(b, prefix...)
	b = append(b, text...)
	return append(b, '\n')
}

func msg(lang Lang, key string, args ...any) string { return printer(lang).Sprintf(key, args...) }

// Message words the catalog entry key in lang. Every argument must be a
// pre-formatted string, so that digits are never grouped.
func Message(lang Lang, key string, args ...any) string { return msg(lang, key, args...) }

func itoa(n int) string { return strconv.Itoa(n) }

// WarningMessage words a warning without its "[severity=major]" tag.
func WarningMessage(w skill.Warning, scope skill.Scope, lang Lang) string {
	switch w.Kind {
	case skill.WarnGuardExclude:
		return msg(lang, keyGuardExclude, w.Path)
	case skill.WarnGuardRetention:
		return msg(lang, keyGuardRetention, w.Path)
	case skill.WarnUnguardedSingleSource:
		return msg(lang, keyUnguarded, w.Path)
	case skill.WarnMtimeMissing:
		return msg(lang, keyMtimeMissing, itoa(w.N), w.First)
	case skill.WarnMtimeInconsistent:
		return msg(lang, keyMtimeInconsist, itoa(w.N), w.First)
	case skill.WarnDuplicate:
		return msg(lang, keyDuplicate, itoa(w.N), w.First)
	case skill.WarnAggressive:
		return msg(lang, keyAggressive, string(scope), itoa(w.Remove), itoa(w.Total))
	}
	return string(w.Kind)
}

// QuestionMessage words a handoff question.
func QuestionMessage(q skill.Question, scope skill.Scope, lang Lang) string {
	switch q.Kind {
	case skill.QuestionInvalidRetention:
		return msg(lang, keyInvalidRetention, q.Key, q.Literal)
	case skill.QuestionUnreliableMtime:
		return msg(lang, keyUnreliableMtime, itoa(q.N), itoa(q.Total))
	case skill.QuestionGuardsNotSupplied:
		return msg(lang, keyGuardsNotGiven, string(scope), q.Path)
	}
	return string(q.Kind)
}

// RemoveMessage words the evidence of one REMOVE verdict, numbers in plain
// digits (SPEC A10: 1.0e3 in the input is 1000 here).
func RemoveMessage(d skill.Decision, lang Lang) string {
	size := strconv.FormatUint(d.SizeBytes, 10)
	switch d.Reason {
	case skill.ReasonAge:
		return msg(lang, keyRemoveAge, size, strconv.FormatInt(d.MtimeAge, 10))
	case skill.ReasonCount:
		return msg(lang, keyRemoveCount, size, itoa(d.Rank))
	default:
		return msg(lang, keyRemoveSize, size, d.Cumulative.String())
	}
}

// appendRemoveMessage appends RemoveMessage(d, lang) without a printer:
// the catalog template's text around its two %s, numbers appended in
// place. REMOVE lines are the text output's hot path (a million of them).
func appendRemoveMessage(b []byte, d skill.Decision, lang Lang) []byte {
	key := keyRemoveSize
	switch d.Reason {
	case skill.ReasonAge:
		key = keyRemoveAge
	case skill.ReasonCount:
		key = keyRemoveCount
	}
	texts := messages[key]
	tmpl := texts[0] // the printer falls back to Japanese too
	if lang == English {
		tmpl = texts[1]
	}
	before, rest, _ := strings.Cut(tmpl, "%s")
	between, after, _ := strings.Cut(rest, "%s")
	b = append(b, before...)
	b = strconv.AppendUint(b, d.SizeBytes, 10)
	b = append(b, between...)
	switch d.Reason {
	case skill.ReasonAge:
		b = strconv.AppendInt(b, d.MtimeAge, 10)
	case skill.ReasonCount:
		b = strconv.AppendInt(b, int64(d.Rank), 10)
	default:
		b = d.Cumulative.Append(b)
	}
	return append(b, after...)
}

// GateVerdict is a document's NO_REVIEW: the gate's reasons, already in
// their deterministic order. render words them; it does not depend on the
// gate, whose job ends at the verdict.
type GateVerdict struct {
	Problems []GateProblem
}

// GateProblem is one reason: where (a JSON pointer, "" for the whole
// document) and what.
type GateProblem struct {
	Pointer, Message string
}

// GateReasons writes why a document failed the gate, one reason per line,
// for stderr.
func GateReasons(w io.Writer, v *GateVerdict) error {
	var b []byte
	for _, p := range v.Problems {
		ptr := p.Pointer
		if ptr == "" {
			ptr = "(document)"
		}
		b = line(b, "NO_REVIEW reason: ", ptr+": "+p.Message)
	}
	_, err := w.Write(b)
	return err
}
