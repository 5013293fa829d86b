//go:build linux

package report

import (
	"bufio"
	"io"
	"strconv"

	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/render"
	"github.com/plangate-gc/plangate-gc/skill"
)

// Explain writes --explain's answer for each path: its scope, size,
// timestamp (date) with its source and age in days, then the verdict with
// the one rule that decided it.
func Explain(w io.Writer, exps []gc.Explanation, now int64, r skill.Retention, lang render.Lang) error {
	p := printer{lang}
	b := bufio.NewWriter(w)
	for _, ex := range exps {
		if ex.Scope != "" && ex.Verdict != gc.VerdictError {
			b.WriteString(p.Sprintf("gc-explain-file", Display(ex.Path), string(ex.Scope),
				HumanBytes(strconv.FormatUint(ex.SizeBytes, 10)), date(ex.Timestamp), string(ex.Source),
				strconv.FormatInt(ex.AgeDays, 10)) + "\n")
		} else {
			b.WriteString(p.Sprintf("gc-explain-nofile", Display(ex.Path)) + "\n")
		}
		sr := r
		if ex.Retention != (skill.Retention{}) {
			sr = ex.Retention
		}
		b.WriteString("  " + verdictText(ex, sr, p) + "\n")
	}
	return b.Flush()
}

func verdictText(ex gc.Explanation, r skill.Retention, p printer) string {
	switch ex.Verdict {
	case gc.VerdictRemove:
		d := ex.Decision
		switch d.Reason {
		case skill.ReasonAge:
			return p.Sprintf("gc-verdict-remove-age", strconv.FormatInt(d.MtimeAge, 10), r.Days.Literal)
		case skill.ReasonCount:
			return p.Sprintf("gc-verdict-remove-count", strconv.Itoa(d.Rank), r.MaxEntries.Literal)
		case skill.ReasonSize:
			return p.Sprintf("gc-verdict-remove-size", HumanBytes(d.Cumulative.String())+" ("+d.Cumulative.String()+" B)",
				r.MaxSizeMb.Literal)
		}
	case gc.VerdictKeep:
		return p.Sprintf("gc-verdict-keep", r.Days.Literal, r.MaxEntries.Literal, r.MaxSizeMb.Literal)
	case gc.VerdictError:
		if ex.Err != nil {
			return p.Sprintf("gc-verdict-error", ErrorText(ex.Err, p.lang))
		}
	}
	return p.Sprintf("gc-verdict-" + string(ex.Verdict))
}
