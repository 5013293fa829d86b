//go:build linux

// Package report words river gc's outcome for people and machines: the
// human summary (ja/en, from render's one catalog), the JSON result of seed
// 000 with SPEC B3's additions, and the errors on stderr. It decides
// nothing; gc hands it data.
package report

import (
	"bytes"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"

	"github.com/plangate-gc/plangate-gc/internal/fserr"
	_ "github.com/plangate-gc/plangate-gc/internal/rivergc/catalog" // river gc's words, registered into render's catalog
	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/render"
	"github.com/plangate-gc/plangate-gc/skill"
)

// GCJSON writes river gc's result object in seed 000's shape and key order,
// indented for people reading the CI artifact. SPEC B3's additions come
// after the seed's keys of the same object: keptSummary.<scope> gains
// protected and sources, removed[] stays path/sizeBytes/reason and a
// parallel evidence[] (same order) carries what decided each removal, and
// warnings[] precedes errors[]. Messages are English, so they are stable.
//
// The layout is json.Indent(…, "", "  ")'s, written as the document is
// built (no compact form, no second pass over the bytes), in blocks, so a
// result with hundreds of thousands of removals is never held in memory.
func GCJSON(w io.Writer, o gc.Outcome, r skill.Retention) error {
	j := &layout{w: w}
	j.begin('{')
	j.key("version")
	j.lit(`"1"`)
	if ri := o.Run; ri.Root != "" {
		j.key("toolVersion")
		j.str(ri.Version)
		j.key("root")
		j.str(ri.Root)
		j.key("now")
		j.str(time.Unix(ri.Now, 0).UTC().Format(time.RFC3339))
		j.int("durationMs", ri.DurationMs)
	}
	j.key("mode")
	j.str(string(o.Mode))
	if p := o.Applied; p != nil { // an --apply run: the plan it applied (SPEC J2)
		j.key("plan")
		j.begin('{')
		j.key("digest")
		j.str(p.Digest)
		j.int("items", int64(len(p.Items)))
		j.end('}')
	}
	j.key("scopes")
	j.begin('[')
	for _, s := range o.Scopes {
		j.item()
		j.str(string(s.Scope))
	}
	j.end(']')
	j.key("retention")
	retentionObject(j, r)
	if perScope(o, r) {
		retentionPerScope(j, o, r)
	}
	if o.KeepWithin > 0 { // B9 addition, only with --keep-within
		j.int("keepWithinSeconds", o.KeepWithin)
	}
	t := sum(o)
	j.key("reclaimed")
	j.begin('{')
	j.key("sizeBytes")
	j.lit(reclaimed(o, t).String())
	j.int("allocatedBytes", int64(reclaimedAllocated(o, t)))
	j.end('}')
	removedArray(j, o)
	keptSummary(j, o)
	evidenceArray(j, o)
	if len(o.RunDirs) > 0 { // SPEC B7: written only when there are some
		j.strings("removedDirs", o.RunDirs)
	}
	if len(o.RunDirsStay) > 0 {
		j.strings("emptiedDirsStay", o.RunDirsStay)
	}
	protectedFiles(j, o)
	warningsArray(j, o)
	errorsArray(j, o)
	if in := o.Interrupted; in != nil {
		j.key("interrupted")
		j.begin('{')
		j.strings("journals", in.Journals)
		j.strings("removed", in.Removed)
		if len(in.Rewritten) > 0 {
			j.strings("rewritten", in.Rewritten)
		}
		if len(in.Temps) > 0 {
			j.strings("temps", in.Temps)
		}
		j.key("finished")
		j.lit(strconv.FormatBool(in.Finished))
		j.end('}')
	}
	if o.Requests != nil { // a bucket run: its requests by kind (SPEC H6)
		j.key("requests")
		j.begin('{')
		for _, k := range slices.Sorted(maps.Keys(o.Requests)) {
			j.key(k)
			j.lit(strconv.Itoa(o.Requests[k]))
		}
		j.end('}')
	}
	j.end('}')
	j.b = append(j.b, '\n')
	return j.flush()
}

// removedArray writes removed[]: each removal's path, size, reason and, for an entry, what it stands for.
func removedArray(j *layout, o gc.Outcome) {
	j.key("removed")
	j.begin('[')
	for rm := range o.Removed() {
		j.item()
		j.begin('{')
		j.key("path")
		j.str(rm.Path)
		j.key("sizeBytes")
		j.b = strconv.AppendUint(j.b, rm.SizeBytes, 10)
		j.key("reason")
		j.str(string(rm.Reason))
		if e := rm.Entry; e != nil {
			j.key("entry")
			j.begin('{')
			j.key("store")
			j.str(e.Store)
			if e.Line > 0 {
				j.int("line", int64(e.Line))
				j.key("timestamp")
				j.str(e.Timestamp)
			} else {
				j.key("id")
				j.str(e.ID)
			}
			j.end('}')
		}
		j.end('}')
		j.spill()
	}
	j.end(']')
}

// keptSummary writes keptSummary: per scope what stays, what protected it and where its timestamps came from.
func keptSummary(j *layout, o gc.Outcome) {
	j.key("keptSummary")
	j.begin('{')
	for _, s := range o.Scopes {
		j.key(string(s.Scope))
		j.begin('{')
		j.int("count", int64(s.Kept))
		j.key("sizeBytes")
		j.lit(s.KeptBytes.String())
		j.key("protected")
		j.begin('{')
		j.int("hardGuarded", int64(s.Protected.HardGuarded))
		j.int("excluded", int64(s.Protected.Excluded))
		j.int("tracked", int64(s.Protected.Tracked))
		if o.KeepWithin > 0 { // B9 addition: kept by --keep-within, written only with it
			j.int("fresh", int64(s.Protected.Fresh))
		}
		if s.Protected.NestedRepos > 0 { // B4 addition, written only when there are some (decision 41)
			j.int("nestedRepos", int64(s.Protected.NestedRepos))
		}
		j.end('}')
		if s.Linked > 0 { // B4 addition: removed names whose bytes other hard links still hold (decision 46)
			j.key("linked")
			j.begin('{')
			j.int("count", int64(s.Linked))
			j.key("sizeBytes")
			j.lit(s.LinkedBytes.String())
			j.end('}')
		}
		j.key("sources")
		j.begin('{')
		j.int("metadata", int64(s.Sources.Metadata))
		j.int("run", int64(s.Sources.Run))
		j.int("mtime", int64(s.Sources.Mtime))
		j.end('}')
		j.end('}')
	}
	j.end('}')
}

// evidenceArray writes evidence[], parallel to removed[]: what decided each removal.
func evidenceArray(j *layout, o gc.Outcome) {
	j.key("evidence")
	j.begin('[')
	for rm := range o.Evidence() {
		j.item()
		j.begin('{')
		j.pathScope(rm.Path, rm.Scope)
		j.key("reason")
		j.str(string(rm.Reason))
		switch rm.Reason {
		case skill.ReasonAge:
			j.int("ageDays", rm.MtimeAge)
		case skill.ReasonCount:
			j.int("rank", int64(rm.Rank))
		case skill.ReasonSize:
			j.key("cumulativeBytes")
			j.lit(rm.Cumulative.String())
		}
		j.int("timestamp", rm.Timestamp)
		j.key("timestampSource")
		j.str(string(rm.Source))
		j.end('}')
		j.spill()
	}
	j.end(']')
}

// protectedFiles writes protectedFiles[] (--verbose only, SPEC B7, so other results keep their bytes).
func protectedFiles(j *layout, o gc.Outcome) {
	if o.ProtectedFiles == nil {
		return
	}
	j.key("protectedFiles")
	j.begin('[')
	for _, pf := range o.ProtectedFiles {
		j.item()
		j.begin('{')
		j.pathScope(pf.Path, pf.Scope)
		j.key("rule")
		j.str(string(pf.Rule))
		j.end('}')
		j.spill()
	}
	j.end(']')
}

// warningsArray writes warnings[], each worded in English (stable).
func warningsArray(j *layout, o gc.Outcome) {
	j.key("warnings")
	j.begin('[')
	for _, wa := range o.Warnings {
		j.item()
		j.begin('{')
		j.key("kind")
		j.str(string(wa.Kind))
		if wa.Scope != "" {
			j.key("scope")
			j.str(string(wa.Scope))
		}
		if wa.Path != "" {
			j.key("path")
			j.str(wa.Path)
		}
		j.key("message")
		j.str(WarningText(wa, render.English))
		j.end('}')
	}
	j.end(']')
}

// errorsArray writes errors[], each worded in English (stable).
func errorsArray(j *layout, o gc.Outcome) {
	j.key("errors")
	j.begin('[')
	for _, e := range o.Errors {
		j.item()
		j.begin('{')
		j.key("path")
		j.str(e.Path)
		j.key("message")
		j.str(ErrorText(e, render.English))
		j.end('}')
		j.spill()
	}
	j.end(']')
}

// Errors writes river gc's errors[] for stderr, one per line, in lang.
func Errors(w io.Writer, errs []*fserr.Error, lang render.Lang) error {
	var b bytes.Buffer
	for _, e := range errs {
		b.WriteString(render.Message(lang, "gc-error-line", Display(e.Path), ErrorText(e, lang)) + "\n")
	}
	_, err := w.Write(b.Bytes())
	return err
}

// Display quotes a name or a pattern that holds control or other
// non-printable characters (bidi overrides and invisible format
// characters included), invalid UTF-8 (a raw byte such as 0x9b is a C1
// control, CSI, to some terminals), a quote or a backslash, so that
// nothing a file name or pattern contains can break a line of human
// output or send escape sequences to a terminal, and an unquoted name
// never contains what a quoted one (Go's escapes, \xff for a byte) is
// made of. It is the one quoting of names in every human output
// (summary, --debug, warnings, errors); JSON keeps paths exact.
func Display(p string) string {
	if strings.ContainsAny(p, `"\`) {
		return strconv.Quote(p)
	}
	return DisplayText(p)
}

// DisplayText quotes a whole message (an error's text, which may quote
// names itself) only when it holds what a terminal would interpret.
func DisplayText(s string) string {
	if !utf8.ValidString(s) || strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		return strconv.Quote(s)
	}
	return s
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

// perScope reports whether some scope has a policy of its own (SPEC D6):
// only then is retentionPerScope written, so a run without SCOPE=VALUE
// flags keeps seed 000's result byte for byte.
func perScope(o gc.Outcome, r skill.Retention) bool {
	for _, s := range o.Scopes {
		if s.Retention != r && s.Retention != (skill.Retention{}) {
			return true
		}
	}
	return false
}

// retentionPerScope writes, for every resolved scope, the policy applied
// to it.
func retentionPerScope(j *layout, o gc.Outcome, r skill.Retention) {
	j.key("retentionPerScope")
	j.begin('{')
	for _, s := range o.Scopes {
		sr := s.Retention
		if sr == (skill.Retention{}) {
			sr = r
		}
		j.key(string(s.Scope))
		retentionObject(j, sr)
	}
	j.end('}')
}

// retentionObject writes a policy as seed 000's retention object, its
// numbers as they were given.
func retentionObject(j *layout, r skill.Retention) {
	j.begin('{')
	j.key("days")
	j.lit(r.Days.Literal)
	j.key("maxEntries")
	j.lit(r.MaxEntries.Literal)
	j.key("maxSizeMb")
	j.lit(r.MaxSizeMb.Literal)
	j.end('}')
}
