package render

import (
	"github.com/plangate-gc/plangate-gc/internal/jsonesc"

	"io"
	"strconv"
	"unicode/utf8"

	"github.com/plangate-gc/plangate-gc/skill"
)

// Skill is the skill id every JSON object names.
const Skill = "plangate-gc-deterministic"

// JSON writes the one-line object of SPEC A11, keys in the spec's order.
// It is assembled by hand because the bytes are the contract: encoding/json
// always escapes U+2028/U+2029 (and by default '<', '>', '&') in paths.
func JSON(w io.Writer, d Document, lang Lang) error {
	b := []byte(`{"version":"1","skill":"` + Skill + `","status":`)
	if d.Gate != nil {
		b = AppendString(b, "no_review")
		b = append(b, `,"gate":{"errors":[`...)
		for i, p := range d.Gate.Problems {
			b = comma(b, i)
			b = append(b, `{"instanceLocation":`...)
			b = AppendString(b, p.Pointer)
			b = append(b, `,"message":`...)
			b = AppendString(b, p.Message)
			b = append(b, '}')
		}
		b = append(b, "]}}\n"...)
		_, err := w.Write(b)
		return err
	}
	r, in := &d.Result, &d.Input
	b = AppendString(b, string(r.Status))
	b = append(b, `,"scope":`...)
	b = AppendString(b, string(r.Scope))
	b = append(b, `,"now":`...)
	b = strconv.AppendInt(b, in.Now, 10)
	b = append(b, `,"retention":{"days":`+in.Retention.Days.Literal+
		`,"maxEntries":`+in.Retention.MaxEntries.Literal+
		`,"maxSizeMb":`+in.Retention.MaxSizeMb.Literal+`},"removed":[`...)
	b, err := appendItems(w, b, r.Removed, appendRemoved)
	if err != nil {
		return err
	}
	b = append(b, ']')
	if r.Evaluated {
		c := r.Counts
		b = append(b, `,"keptSummary":{"count":`...)
		b = strconv.AppendInt(b, int64(c.Keep), 10)
		b = append(b, `,"sizeBytes":`+r.KeptBytes.String()+`},"counts":{`...)
		for i, kv := range []struct {
			k string
			v int
		}{{"keep", c.Keep}, {"remove", c.Remove}, {"hardGuarded", c.HardGuarded}, {"excluded", c.Excluded},
			{"mtimeMissing", c.MtimeMissing}, {"mtimeInconsistent", c.MtimeInconsistent},
			{"duplicates", c.Duplicates}, {"directories", c.Directories}, {"outOfScope", c.OutOfScope}} {
			b = comma(b, i)
			b = append(b, `"`+kv.k+`":`...)
			b = strconv.AppendInt(b, int64(kv.v), 10)
		}
		b = append(b, '}')
	}
	b = append(b, `,"evidence":[`...)
	if b, err = appendItems(w, b, r.Removed, appendEvidence); err != nil {
		return err
	}
	b = append(b, `],"warnings":[`...)
	for i, wa := range r.Warnings {
		b = comma(b, i)
		b = append(b, `{"kind":"`+string(wa.Kind)+`","severity":"major","message":`...)
		b = AppendString(b, WarningMessage(wa, r.Scope, lang))
		b = append(b, '}')
	}
	b = append(b, `],"questions":[`...)
	for i, q := range r.Questions {
		b = comma(b, i)
		b = append(b, `{"kind":"`+string(q.Kind)+`","message":`...)
		b = AppendString(b, QuestionMessage(q, r.Scope, lang))
		b = append(b, '}')
	}
	b = append(b, "]}\n"...)
	_, err = w.Write(b)
	return err
}

// appendRemoved appends the removed[] item of dec (SPEC A11).
func appendRemoved(b []byte, dec *skill.Decision) []byte {
	b = append(b, `{"path":`...)
	b = AppendString(b, dec.Path)
	b = append(b, `,"sizeBytes":`...)
	b = strconv.AppendUint(b, dec.SizeBytes, 10)
	b = append(b, `,"reason":"`...)
	b = append(b, dec.Reason...)
	return append(b, `"}`...)
}

// appendEvidence appends the evidence[] item of dec (SPEC A11).
func appendEvidence(b []byte, dec *skill.Decision) []byte {
	b = append(b, `{"path":`...)
	b = AppendString(b, dec.Path)
	b = append(b, `,"reason":"`...)
	b = append(b, dec.Reason...)
	b = append(b, `",`...)
	switch dec.Reason {
	case skill.ReasonAge:
		b = append(b, `"mtimeAge":`...)
		b = strconv.AppendInt(b, dec.MtimeAge, 10)
	case skill.ReasonCount:
		b = append(b, `"rank":`...)
		b = strconv.AppendInt(b, int64(dec.Rank), 10)
	default:
		b = dec.Cumulative.Append(append(b, `"cumulativeBytes":`...))
	}
	return append(b, '}')
}

func comma(b []byte, i int) []byte {
	if i > 0 {
		return append(b, ',')
	}
	return b
}

// AppendString appends s as a JSON string: quotes, backslashes and control
// characters escaped, everything else (including non-ASCII and <>&) as is.
// An invalid UTF-8 byte 0xHH becomes the escape \udcHH (a lone low
// surrogate, as Python's surrogateescape): JSON text stays ASCII-safe,
// and no valid UTF-8 text can produce that escape, so a name that is not
// UTF-8 never reads like another name, not even one holding U+FFFD or
// the characters "\xff" (decision 45). Decoders that replace lone
// surrogates (Go's encoding/json) see U+FFFD.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		// Copy a run of plain ASCII at once: paths are mostly that.
		run := i
		for run < len(s) && s[run] >= 0x20 && s[run] < utf8.RuneSelf && s[run] != '"' && s[run] != '\\' {
			run++
		}
		if run > i {
			b, i = append(b, s[i:run]...), run
			continue
		}
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, `\udc`...)
				b = append(b, hexDigits[c>>4], hexDigits[c&0xf])
			} else {
				b = append(b, s[i:i+size]...)
			}
			i += size
			continue
		}
		b = jsonesc.AppendASCII(b, c)
		i++
	}
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"

// warmAhead is how many removals warm loads at once.
const warmAhead = 128

// warm loads both ends of the paths of the first warmAhead removals and
// returns a byte of them (callers keep it, so the loads stay). The skill
// sorts paths that lie in input order, so on input not in path order each
// path is a cache miss; a tight loop of independent loads waits for many
// at once, and the escaping loop then finds them in the cache.
func warm(ds []skill.Decision) byte {
	var sum byte
	for _, d := range ds[:min(warmAhead, len(ds))] {
		if p := d.Path; p != "" {
			sum += p[0] + p[len(p)-1]
		}
	}
	return sum
}
