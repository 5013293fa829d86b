// Package report words river gc's outcome for people and machines: the
// human summary (ja/en, from render's one catalog), the JSON result of seed
// 000 with SPEC B3's additions, and the errors on stderr. It decides
// nothing; gc hands it data.
package report

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/width"

	"github.com/plangate-gc/plangate-gc/gc"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
	"github.com/plangate-gc/plangate-gc/render"
	"github.com/plangate-gc/plangate-gc/skill"
)

// GCJSON writes river gc's result object in seed 000's shape and key order,
// indented for people reading the CI artifact. SPEC B3's additions come
// after the seed's keys of the same object: keptSummary.<scope> gains
// protected and sources, removed[] stays path/sizeBytes/reason and a
// parallel evidence[] (same order) carries what decided each removal, and
// warnings[] precedes errors[]. Messages are English, so they are stable.
func GCJSON(w io.Writer, o gc.Outcome, r skill.Retention) error {
	b := []byte(`{"version":"1","mode":"` + string(o.Mode) + `","scopes":[`)
	for i, s := range o.Scopes {
		b = comma(b, i)
		b = render.AppendString(b, string(s.Scope))
	}
	b = append(b, `],"retention":{"days":`+r.Days.Literal+`,"maxEntries":`+r.MaxEntries.Literal+
		`,"maxSizeMb":`+r.MaxSizeMb.Literal+`},"removed":[`...)
	for i, rm := range o.Removed {
		b = comma(b, i)
		b = append(b, `{"path":`...)
		b = render.AppendString(b, rm.Path)
		b = append(b, `,"sizeBytes":`...)
		b = strconv.AppendUint(b, rm.SizeBytes, 10)
		b = append(b, `,"reason":"`+string(rm.Reason)+`"}`...)
	}
	b = append(b, `],"keptSummary":{`...)
	for i, s := range o.Scopes {
		b = comma(b, i)
		b = render.AppendString(b, string(s.Scope))
		b = append(b, `:{"count":`+strconv.Itoa(s.Kept)+`,"sizeBytes":`+s.KeptBytes.String()...)
		b = append(b, `,"protected":{"hardGuarded":`+strconv.Itoa(s.Protected.HardGuarded)+
			`,"excluded":`+strconv.Itoa(s.Protected.Excluded)+`,"tracked":`+strconv.Itoa(s.Protected.Tracked)+`}`...)
		b = append(b, `,"sources":{"metadata":`+strconv.Itoa(s.Sources.Metadata)+
			`,"run":`+strconv.Itoa(s.Sources.Run)+`,"mtime":`+strconv.Itoa(s.Sources.Mtime)+`}}`...)
	}
	b = append(b, `},"evidence":[`...)
	for i, rm := range o.Removed {
		b = comma(b, i)
		b = append(b, `{"path":`...)
		b = render.AppendString(b, rm.Path)
		b = append(b, `,"scope":"`+string(rm.Scope)+`","reason":"`+string(rm.Reason)+`"`...)
		switch rm.Reason {
		case skill.ReasonAge:
			b = append(b, `,"ageDays":`...)
			b = strconv.AppendInt(b, rm.Decision.MtimeAge, 10)
		case skill.ReasonCount:
			b = append(b, `,"rank":`...)
			b = strconv.AppendInt(b, int64(rm.Decision.Rank), 10)
		case skill.ReasonSize:
			b = append(b, `,"cumulativeBytes":`+rm.Decision.Cumulative.String()...)
		}
		b = append(b, `,"timestamp":`...)
		b = strconv.AppendInt(b, rm.Timestamp, 10)
		b = append(b, `,"timestampSource":"`+string(rm.Source)+`"}`...)
	}
	b = append(b, `],"warnings":[`...)
	for i, wa := range o.Warnings {
		b = comma(b, i)
		b = append(b, `{"kind":"`+string(wa.Kind)+`"`...)
		if wa.Scope != "" {
			b = append(b, `,"scope":"`+string(wa.Scope)+`"`...)
		}
		if wa.Path != "" {
			b = append(b, `,"path":`...)
			b = render.AppendString(b, wa.Path)
		}
		b = append(b, `,"message":`...)
		b = render.AppendString(b, WarningText(wa, render.English))
		b = append(b, '}')
	}
	b = append(b, `],"errors":[`...)
	for i, e := range o.Errors {
		b = comma(b, i)
		b = append(b, `{"path":`...)
		b = render.AppendString(b, e.Path)
		b = append(b, `,"message":`...)
		b = render.AppendString(b, ErrorText(e, render.English))
		b = append(b, '}')
	}
	b = append(b, "]}"...)
	_, err := w.Write(append(indent(make([]byte, 0, len(b)+len(b)/2), b), '\n'))
	return err
}

// indent lays out compact JSON that this package built (so it is valid and
// its strings are escaped) exactly as json.Indent(dst, src, "", "  ")
// would, without json.Indent's second validating pass over a result that
// can hold hundreds of thousands of removals.
func indent(dst, src []byte) []byte {
	depth, inString := 0, false
	newline := func() {
		dst = append(dst, '\n')
		for range depth {
			dst = append(dst, ' ', ' ')
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if inString {
			dst = append(dst, c)
			switch c {
			case '\\':
				i++
				dst = append(dst, src[i])
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
			dst = append(dst, c)
		case '{', '[':
			dst = append(dst, c)
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				dst = append(dst, src[i+1])
				i++
				continue
			}
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, c, ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// Errors writes river gc's errors[] for stderr, one per line, in lang.
func Errors(w io.Writer, errs []*fserr.Error, lang render.Lang) error {
	var b bytes.Buffer
	for _, e := range errs {
		b.WriteString(render.Message(lang, "gc-error-line", displayPath(e.Path), ErrorText(e, lang)) + "\n")
	}
	_, err := w.Write(b.Bytes())
	return err
}

// displayPath quotes a path that holds control or other non-printable
// characters, so a file name cannot break the summary's lines or send
// escape sequences to a terminal. JSON output keeps paths exact.
func displayPath(p string) string {
	if strings.IndexFunc(p, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		return strconv.Quote(p)
	}
	return p
}

// pad fills s with spaces to n terminal columns (East Asian wide
// characters take two), on the right when left-aligned.
func pad(s string, n int, left bool) string {
	fill := strings.Repeat(" ", max(0, n-cols(s)))
	if left {
		return s + fill
	}
	return fill + s
}

// cols is the number of terminal columns s takes (East Asian wide
// characters take two).
func cols(s string) int {
	n := 0
	for _, r := range s {
		switch width.LookupRune(r).Kind() {
		case width.EastAsianWide, width.EastAsianFullwidth:
			n += 2
		default:
			n++
		}
	}
	return n
}

// HumanBytes renders a decimal byte count in binary units (1.5 MiB).
func HumanBytes(digits string) string {
	n, err := strconv.ParseFloat(digits, 64)
	if err != nil {
		return digits
	}
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB"}
	i := 0
	for n >= 1024 && i < len(units)-1 {
		n /= 1024
		i++
	}
	if i == 0 {
		return digits + " B"
	}
	return strconv.FormatFloat(n, 'f', 1, 64) + " " + units[i]
}

// printer words catalog entries in one language.
type printer struct{ lang render.Lang }

func (p printer) Sprintf(key string, args ...any) string { return render.Message(p.lang, key, args...) }

func comma(b []byte, i int) []byte {
	if i > 0 {
		b = append(b, ',')
	}
	return b
}
