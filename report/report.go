// Package report words river gc's outcome for people and machines: the
// human summary (ja/en, from render's one catalog), the JSON result of seed
// 000 with SPEC B3's additions, and the errors on stderr. It decides
// nothing; gc hands it data.
package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/width"

	"github.com/plangate-gc/plangate-gc/gc"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
	"github.com/plangate-gc/plangate-gc/render"
	"github.com/plangate-gc/plangate-gc/skill"
)

// GCJSON writes river gc's result object exactly in seed 000's shape and
// key order, indented for people reading the CI artifact.
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
		b = append(b, `:{"count":`+strconv.Itoa(s.Kept)+`,"sizeBytes":`+s.KeptBytes.String()+`}`...)
	}
	b = append(b, `},"errors":[`...)
	for i, e := range o.Errors {
		b = comma(b, i)
		b = append(b, `{"path":`...)
		b = render.AppendString(b, e.Path)
		b = append(b, `,"message":`...)
		b = render.AppendString(b, ErrorText(e))
		b = append(b, '}')
	}
	b = append(b, "]}"...)
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return fmt.Errorf("render: river gc JSON: %w", err)
	}
	out.WriteByte('\n')
	_, err := w.Write(out.Bytes())
	return err
}

// Summary writes river gc's human summary: the per-scope table, the
// removed (or would-remove) list with reasons, the engine's warnings and
// questions, and the errors.
func Summary(w io.Writer, o gc.Outcome, r skill.Retention, now int64, lang render.Lang) error {
	p := printer{lang}
	var b bytes.Buffer
	b.WriteString(p.Sprintf(keyGCHeader, string(o.Mode), r.Days.Literal, r.MaxEntries.Literal, r.MaxSizeMb.Literal,
		time.Unix(now, 0).UTC().Format(time.RFC3339)) + "\n")
	row := func(cells ...string) {
		b.WriteString(pad(cells[0], 18, true))
		for i, c := range cells[1:] {
			b.WriteString(" " + pad(c, []int{8, 10, 8, 10}[i], false))
		}
		b.WriteByte('\n')
	}
	row(p.Sprintf(keyGCScope), p.Sprintf(keyGCKept), p.Sprintf(keyGCSize), p.Sprintf(keyGCRemoved), p.Sprintf(keyGCSize))
	removedBy := map[skill.Scope][2]uint64{}
	for _, rm := range o.Removed {
		v := removedBy[rm.Scope]
		removedBy[rm.Scope] = [2]uint64{v[0] + 1, v[1] + rm.SizeBytes}
	}
	for _, s := range o.Scopes {
		rm := removedBy[s.Scope]
		row(string(s.Scope), strconv.Itoa(s.Kept), HumanBytes(s.KeptBytes.String()),
			strconv.FormatUint(rm[0], 10), HumanBytes(strconv.FormatUint(rm[1], 10)))
	}
	listKey := keyGCRemovedList
	if o.Mode == gc.DryRun {
		listKey = keyGCWouldRemove
	}
	if len(o.Removed) > 0 {
		b.WriteString(p.Sprintf(listKey, strconv.Itoa(len(o.Removed))) + "\n")
		for _, rm := range o.Removed {
			fmt.Fprintf(&b, "  %s  %s  %s\n", displayPath(rm.Path), rm.Reason, HumanBytes(strconv.FormatUint(rm.SizeBytes, 10)))
		}
	}
	for _, s := range o.Scopes {
		for _, wa := range s.Result.Warnings {
			fmt.Fprintf(&b, "%s %s: %s\n", p.Sprintf(keyGCWarning), s.Scope, displayPath(render.WarningMessage(wa, s.Scope, lang)))
		}
		for _, q := range s.Result.Questions {
			fmt.Fprintf(&b, "%s %s: %s\n", p.Sprintf(keyGCQuestion), s.Scope, render.QuestionMessage(q, s.Scope, lang))
		}
	}
	if len(o.Errors) > 0 {
		b.WriteString(p.Sprintf(keyGCErrors, strconv.Itoa(len(o.Errors))) + "\n")
	}
	_, err := w.Write(b.Bytes())
	return err
}

// Errors writes river gc's errors[] for stderr, one per line.
func Errors(w io.Writer, errs []*fserr.Error) error {
	var b bytes.Buffer
	for _, e := range errs {
		fmt.Fprintf(&b, "river gc: error: %s: %s\n", displayPath(e.Path), ErrorText(e))
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
	cols := 0
	for _, r := range s {
		switch width.LookupRune(r).Kind() {
		case width.EastAsianWide, width.EastAsianFullwidth:
			cols += 2
		default:
			cols++
		}
	}
	fill := strings.Repeat(" ", max(0, n-cols))
	if left {
		return s + fill
	}
	return fill + s
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

// Catalog keys of river gc's summary (the texts are in render's catalog).
const (
	keyGCHeader      = "gc-header"
	keyGCScope       = "gc-scope"
	keyGCKept        = "gc-kept"
	keyGCSize        = "gc-size"
	keyGCRemoved     = "gc-removed"
	keyGCRemovedList = "gc-removed-list"
	keyGCWouldRemove = "gc-would-remove"
	keyGCWarning     = "gc-warning"
	keyGCQuestion    = "gc-question"
	keyGCErrors      = "gc-errors"
)
