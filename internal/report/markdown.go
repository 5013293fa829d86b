//go:build linux

package report

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/render"
	"github.com/plangate-gc/plangate-gc/skill"
)

// MarkdownRemovals caps the removals a Markdown summary lists; the full
// list is in the JSON result.
const MarkdownRemovals = 1000

// MarkdownMaxBytes caps a whole Markdown summary: GitHub drops a step
// summary above 1 MiB whole, so river gc stays 64 KiB below it.
const MarkdownMaxBytes = 1<<20 - 64<<10

// MarkdownFold is the longest list shown unfolded; longer ones are
// folded in <details> (SPEC B5).
const MarkdownFold = 20

// mdReserve is kept free for the headings and cut notices after a list.
const mdReserve = 8 << 10

// Markdown writes river gc's summary as Markdown for --summary-file (a
// GitHub step summary) in at most MarkdownMaxBytes bytes; MarkdownLimit
// does so in at most limit bytes.
func Markdown(w io.Writer, o gc.Outcome, r skill.Retention, now int64, lang render.Lang) error {
	return MarkdownLimit(w, o, r, now, lang, MarkdownMaxBytes)
}

// MarkdownLimit writes the summary as Markdown: the totals, the
// retention, the per-scope table, the first MarkdownRemovals removals
// and a count of the rest, what killed runs deleted, the warnings and
// the errors (worded in lang). Lists longer than MarkdownFold are folded
// in <details>; a list that would take the summary beyond limit bytes
// (less a reserve for what follows) is cut there, with a line saying how
// many entries were left out and that the full list is in the JSON.
func MarkdownLimit(w io.Writer, o gc.Outcome, r skill.Retention, now int64, lang render.Lang, limit int) error {
	p := printer{lang}
	b := &mdBuf{limit: limit - mdReserve, p: p}
	t := sum(o)
	b.WriteString("## " + p.Sprintf("gc-md-title") + "\n\n")
	b.WriteString("**" + mdText(p.Sprintf("gc-total-"+string(o.Mode), HumanBytes(reclaimed(o, t).String()), countWords(p, t))) + "**\n\n")
	if o.Run.Root != "" { // SPEC B5: the root the run judged, named first
		root := mdText(Display(o.Run.Root))
		if d := Display(o.Run.Root); !strings.ContainsAny(d, "`\n\r<>&") {
			root = "`" + d + "`" // a code span: no escapes for the reader to undo
		}
		b.WriteString(p.Sprintf("gc-debug-root", root) + "\n\n")
	}
	if a := o.Applied; a != nil { // an --apply run names its plan (SPEC J2)
		b.WriteString(mdText(p.Sprintf("gc-plan-applying", a.Digest, strconv.Itoa(len(a.Items)))) + "\n\n")
	}
	b.WriteString(mdText(p.Sprintf("gc-header", string(o.Mode), r.Days.Literal, r.MaxEntries.Literal, r.MaxSizeMb.Literal,
		time.Unix(now, 0).UTC().Format(time.RFC3339))) + "\n\n")
	if lines := scopeRetention(p, o, r); lines != nil {
		for _, line := range lines {
			b.WriteString("-" + mdText(line[1:]) + "\n")
		}
		b.WriteString("\n")
	}
	b.scopeTable(o, t)
	if t.files > 0 {
		listKey := "gc-removed-list"
		if o.Mode == gc.DryRun {
			listKey = "gc-would-remove"
		}
		b.WriteString("\n" + mdText(p.Sprintf(listKey, strconv.Itoa(t.files))) + "\n\n")
		shown := min(t.files, MarkdownRemovals)
		b.open(t.files)
		b.row(p.Sprintf("gc-col-path"), p.Sprintf("gc-col-reason"), p.Sprintf("gc-size"), p.Sprintf("gc-col-age"),
			p.Sprintf("gc-col-timestamp"), p.Sprintf("gc-col-source"))
		b.WriteString("|---|---|--:|--:|---|---|\n")
		n := 0
		for rm := range largestRemovals(o, shown) {
			c := removalCells(rm, now)
			if !b.item("| `" + mdCode(rm.Path) + "` | " + c[0] + " | " + c[1] + " | " + c[2] + " | " + c[3] + " | " + c[4] + " |\n") {
				break
			}
			n++
		}
		b.close()
		switch {
		case n < shown:
			b.cut(t.files - n)
		case shown < t.files:
			b.WriteString("\n" + mdText(p.Sprintf("gc-md-more", strconv.Itoa(t.files-shown))) + "\n")
		}
	}
	if in := o.Interrupted; in != nil {
		for _, l := range interruptedLists(in) {
			if len(l.paths) == 0 && l.key != interruptedLists(in)[0].key {
				continue
			}
			b.WriteString("\n" + mdText(p.Sprintf(l.key, strings.Join(in.Journals, ", "), strconv.Itoa(len(l.paths)))) + "\n\n")
			shown := min(len(l.paths), MarkdownRemovals) // cut like the removals
			if b.list(l.paths[:shown], func(s string) string { return "- `" + mdCode(s) + "`\n" }) && shown < len(l.paths) {
				b.WriteString("\n" + mdText(p.Sprintf("gc-md-more", strconv.Itoa(len(l.paths)-shown))) + "\n")
			}
		}
	}
	if n := len(o.RunDirs); n > 0 { // SPEC B7: what the run emptied goes with it
		b.WriteString("\n" + mdText(p.Sprintf("gc-run-dirs-"+string(o.Mode), strconv.Itoa(n), o.RunDirs[0])) + "\n")
	}
	if n := len(o.RunDirsStay); n > 0 {
		b.WriteString("\n" + mdText(p.Sprintf("gc-run-dirs-stay", strconv.Itoa(n), o.RunDirsStay[0])) + "\n")
	}
	var warns []string
	for _, wa := range o.Warnings {
		warns = append(warns, WarningText(wa, lang))
	}
	for _, s := range o.Scopes {
		for _, q := range s.Result.Questions {
			warns = append(warns, p.Sprintf("gc-question")+" "+string(s.Scope)+": "+render.QuestionMessage(q, s.Scope, lang))
		}
	}
	if len(warns) > 0 {
		b.WriteString("\n### " + p.Sprintf("gc-md-warnings") + "\n\n")
		b.list(warns, func(s string) string { return "- " + mdText(s) + "\n" })
	}
	if len(o.Errors) > 0 {
		b.WriteString("\n### " + p.Sprintf("gc-md-errors") + "\n\n")
		lines := make([]string, len(o.Errors))
		for i, e := range o.Errors {
			lines[i] = "- `" + mdCode(e.Path) + "`: " + mdText(ErrorText(e, lang)) + "\n"
		}
		b.list(lines, func(s string) string { return s })
	}
	b.WriteString("\n")
	_, err := w.Write(b.Bytes())
	return err
}

// scopeTable writes the per-scope table: kept, removed and each rule's
// protected count, with a column for --keep-within only when it is set.
func (b *mdBuf) scopeTable(o gc.Outcome, t totals) {
	p := b.p
	head := []string{p.Sprintf("gc-scope"), p.Sprintf("gc-kept"), p.Sprintf("gc-size"), p.Sprintf("gc-removed"), p.Sprintf("gc-size"),
		p.Sprintf("gc-guarded"), p.Sprintf("gc-excluded"), p.Sprintf("gc-tracked")}
	if o.KeepWithin > 0 { // a column of its own only with --keep-within
		head = append(head, p.Sprintf("gc-rule-fresh"))
	}
	b.row(head...)
	b.WriteString("|---|--:|--:|--:|--:" + strings.Repeat("|--:", len(head)-5) + "|\n")
	for _, s := range o.Scopes {
		rm := t.byScope[s.Scope]
		cells := []string{string(s.Scope), strconv.Itoa(s.Kept), HumanBytes(s.KeptBytes.String()), strconv.Itoa(rm.files),
			HumanBytes(rm.bytes.String()), strconv.Itoa(s.Protected.HardGuarded), strconv.Itoa(s.Protected.Excluded),
			strconv.Itoa(s.Protected.Tracked)}
		if o.KeepWithin > 0 {
			cells = append(cells, strconv.Itoa(s.Protected.Fresh))
		}
		b.row(cells...)
	}
}

// mdBuf is a Markdown summary being built under a byte budget.
type mdBuf struct {
	bytes.Buffer
	limit  int // bytes the lists may fill
	p      printer
	folded bool
}

func (b *mdBuf) row(cells ...string) {
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" " + c + " |")
	}
	b.WriteString("\n")
}

// open starts folding a list of n entries when it is long.
func (b *mdBuf) open(n int) {
	if b.folded = n > MarkdownFold; b.folded {
		b.WriteString("<details><summary>" + mdText(b.p.Sprintf("gc-md-details", strconv.Itoa(n))) + "</summary>\n\n")
	}
}

// close ends a folded list.
func (b *mdBuf) close() {
	if b.folded {
		b.WriteString("\n</details>\n")
		b.folded = false
	}
}

// item adds one line of a list if it fits the budget.
func (b *mdBuf) item(line string) bool {
	if b.Len()+len(line) > b.limit {
		return false
	}
	b.WriteString(line)
	return true
}

// list writes the lines of a list, folded when long, cut at the budget;
// it reports whether every line fitted.
func (b *mdBuf) list(items []string, line func(string) string) bool {
	b.open(len(items))
	n := 0
	for _, s := range items {
		if !b.item(line(s)) {
			break
		}
		n++
	}
	b.close()
	if n < len(items) {
		b.cut(len(items) - n)
	}
	return n == len(items)
}

// cut says that left entries of a list were left out for the budget.
func (b *mdBuf) cut(left int) {
	b.WriteString("\n**" + mdText(b.p.Sprintf("gc-md-cut", strconv.Itoa(left))) + "**\n")
}

// mdText escapes what Markdown (and a table cell) would interpret, and
// quotes non-printable characters.
var mdEscaper = strings.NewReplacer("&", "&amp;", `\`, `\\`, "|", `\|`, "*", `\*`, "_", `\_`, "`", "\\`", "<", "&lt;", ">", "&gt;",
	"[", `\[`, "]", `\]`, "#", `\#`)

func mdText(s string) string { return mdEscaper.Replace(Display(s)) }

// mdCode prepares a path for a code span inside a table: backticks and
// pipes cannot be escaped there, so they are replaced by look-alikes.
func mdCode(s string) string {
	return strings.NewReplacer("`", "'", "|", "¦").Replace(Display(s))
}
