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
	in := &indenter{w: w}
	// spill hands the compact bytes built so far to the indenter.
	spill := func(b []byte) []byte {
		if len(b) < 32<<10 {
			return b
		}
		in.write(b)
		return b[:0]
	}
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
		b = spill(b)
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
		b = spill(b)
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
	in.write(append(b, '\n'))
	return in.flush()
}

// indenter lays out compact JSON that this package built (so it is valid
// and its strings are escaped) exactly as json.Indent(dst, src, "", "  ")
// would, streaming: the JSON is fed in chunks and written out in blocks,
// so a result with hundreds of thousands of removals is never held twice,
// and there is no second validating pass.
type indenter struct {
	w                 io.Writer
	out               []byte
	depth             int
	inString, escaped bool
	opened            bool // after '{' or '[': empty, or a newline is due
	err               error
}

// write lays out the next chunk.
func (in *indenter) write(src []byte) {
	for _, c := range src {
		if in.opened {
			in.opened = false
			if c == '}' || c == ']' {
				in.out = append(in.out, c)
				continue
			}
			in.depth++
			in.newline()
		}
		if in.inString {
			in.out = append(in.out, c)
			switch {
			case in.escaped:
				in.escaped = false
			case c == '\\':
				in.escaped = true
			case c == '"':
				in.inString = false
			}
			continue
		}
		switch c {
		case '"':
			in.inString = true
			in.out = append(in.out, c)
		case '{', '[':
			in.out = append(in.out, c)
			in.opened = true
		case '}', ']':
			in.depth--
			in.newline()
			in.out = append(in.out, c)
		case ',':
			in.out = append(in.out, c)
			in.newline()
		case ':':
			in.out = append(in.out, c, ' ')
		default:
			in.out = append(in.out, c)
		}
	}
	if len(in.out) >= 64<<10 {
		in.flush()
	}
}

func (in *indenter) newline() {
	in.out = append(in.out, '\n')
	for range in.depth {
		in.out = append(in.out, ' ', ' ')
	}
}

// flush writes what is laid out so far; the first error sticks.
func (in *indenter) flush() error {
	if in.err == nil && len(in.out) > 0 {
		_, in.err = in.w.Write(in.out)
	}
	in.out = in.out[:0]
	return in.err
}

// indent lays out a whole document at once (for tests and small results).
func indent(dst, src []byte) []byte {
	var b bytes.Buffer
	in := &indenter{w: &b}
	in.write(src)
	in.flush()
	return append(dst, b.Bytes()...)
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
