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
		if judged(ex.Verdict) {
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
		b.WriteString("  " + verdictText(ex, now, sr, p) + "\n")
		if ex.OptIn != "" {
			b.WriteString("  " + p.Sprintf("gc-explain-opt-in", string(ex.OptIn)) + "\n")
		}
		if ex.EntriesAs != "" {
			key := "gc-explain-entries-"
			if ex.EntriesSelected {
				key += "on-"
			} else {
				key += "off-"
			}
			if ex.EntriesAs == skill.ScopeEvalLedger {
				key += "line"
			} else {
				key += "id"
			}
			b.WriteString("  " + p.Sprintf(key, Display(ex.Path), string(ex.EntriesAs)) + "\n")
		}
	}
	return b.Flush()
}

// judged reports whether a verdict is about a file river gc scanned and
// judged (its scope, size and timestamp are then known).
func judged(v gc.Verdict) bool {
	switch v {
	case gc.VerdictError, gc.VerdictInSource, gc.VerdictNestedRepo, gc.VerdictNotInScope, gc.VerdictNotFound,
		gc.VerdictOutside, gc.VerdictDirectory, gc.VerdictSymlink, gc.VerdictNotRegular, gc.VerdictEntryScopeOff, gc.VerdictNoEntry, gc.VerdictOutsideRoot:
		return false
	}
	return true
}

// ageText words an age in seconds exactly: whole days alone, or days and
// the time of day left over, so that a comparison with the retention
// never reads "90 > 90".
func ageText(secs int64, p printer) string { return Duration(secs, p.lang) }

// retentionSeconds is the age limit in seconds, as the engine compares
// (a file goes when its timestamp is before now − days × 86400).
func retentionSeconds(r skill.Retention) (float64, bool) {
	d, err := strconv.ParseFloat(r.Days.Literal, 64)
	return d * 86400, err == nil
}

func verdictText(ex gc.Explanation, now int64, r skill.Retention, p printer) string {
	switch ex.Verdict {
	case gc.VerdictRemove:
		d := ex.Decision
		switch d.Reason {
		case skill.ReasonAge:
			return p.Sprintf("gc-verdict-remove-age", ageText(now-ex.Timestamp, p), r.Days.Literal)
		case skill.ReasonCount:
			return p.Sprintf("gc-verdict-remove-count", strconv.Itoa(d.Rank), r.MaxEntries.Literal)
		case skill.ReasonSize:
			return p.Sprintf("gc-verdict-remove-size", HumanBytes(d.Cumulative.String())+" ("+d.Cumulative.String()+" B)",
				r.MaxSizeMb.Literal)
		}
	case gc.VerdictKeep:
		if lim, ok := retentionSeconds(r); ok && float64(now-ex.Timestamp) == lim {
			return p.Sprintf("gc-verdict-keep-exact", ageText(now-ex.Timestamp, p), r.Days.Literal)
		}
		return p.Sprintf("gc-verdict-keep", r.Days.Literal, r.MaxEntries.Literal, r.MaxSizeMb.Literal)
	case gc.VerdictFresh:
		return p.Sprintf("gc-verdict-fresh", ageText(now-ex.Timestamp, p), ageText(ex.KeepWithin, p))
	case gc.VerdictDirectory:
		switch {
		case ex.RunDirGoes:
			return p.Sprintf("gc-verdict-run-dir-goes", strconv.Itoa(ex.Below), strconv.Itoa(ex.RunDirsBelow))
		case ex.RunDirsBelow > 0:
			return p.Sprintf("gc-verdict-run-dirs-below", strconv.Itoa(ex.Below), strconv.Itoa(ex.BelowRemoved), strconv.Itoa(ex.RunDirsBelow))
		}
		return p.Sprintf("gc-verdict-directory", strconv.Itoa(ex.Below), strconv.Itoa(ex.BelowRemoved))
	case gc.VerdictInSource:
		return p.Sprintf("gc-verdict-in-source", Display(ex.SingleSource))
	case gc.VerdictError:
		if ex.Err != nil {
			return p.Sprintf("gc-verdict-error", ErrorText(ex.Err, p.lang))
		}
	case gc.VerdictEntryScopeOff, gc.VerdictNoEntry:
		return p.Sprintf("gc-verdict-"+string(ex.Verdict), string(ex.Scope))
	case gc.VerdictOutsideRoot:
		return p.Sprintf("gc-verdict-outside-root", Display(ex.Root))
	}
	return p.Sprintf("gc-verdict-" + string(ex.Verdict))
}
