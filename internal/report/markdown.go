//go:build linux

package report

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/render"
	"github.com/plangate-gc/plangate-gc/skill"
)

// MarkdownRemovals caps the removals a Markdown summary lists: GitHub
// limits a step summary to 1 MiB, and 1000 rows of a few hundred bytes
// stay well below it. The full list is in the JSON result.
const MarkdownRemovals = 1000

// Markdown writes river gc's summary as Markdown for --summary-file (a
// GitHub step summary): the totals, the retention, the per-scope table,
// the first MarkdownRemovals removals and a count of the rest, the
// warnings and the errors (worded in lang).
func Markdown(w io.Writer, o gc.Outcome, r skill.Retention, now int64, lang render.Lang) error {
	p := printer{lang}
	b := bufio.NewWriter(w)
	t := sum(o)
	b.WriteString("## " + p.Sprintf("gc-md-title") + "\n\n")
	b.WriteString("**" + mdText(p.Sprintf("gc-total-"+string(o.Mode), HumanBytes(t.bytes.String()), strconv.Itoa(t.files))) + "**\n\n")
	b.WriteString(mdText(p.Sprintf("gc-header", string(o.Mode), r.Days.Literal, r.MaxEntries.Literal, r.MaxSizeMb.Literal,
		time.Unix(now, 0).UTC().Format(time.RFC3339))) + "\n\n")
	if lines := scopeRetention(p, o, r); lines != nil {
		for _, line := range lines {
			b.WriteString("-" + mdText(line[1:]) + "\n")
		}
		b.WriteString("\n")
	}
	mdRow(b, p.Sprintf("gc-scope"), p.Sprintf("gc-kept"), p.Sprintf("gc-size"), p.Sprintf("gc-removed"), p.Sprintf("gc-size"),
		p.Sprintf("gc-guarded"), p.Sprintf("gc-excluded"), p.Sprintf("gc-tracked"))
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, s := range o.Scopes {
		rm := t.byScope[s.Scope]
		mdRow(b, string(s.Scope), strconv.Itoa(s.Kept), HumanBytes(s.KeptBytes.String()), strconv.Itoa(rm.files),
			HumanBytes(rm.bytes.String()), strconv.Itoa(s.Protected.HardGuarded), strconv.Itoa(s.Protected.Excluded),
			strconv.Itoa(s.Protected.Tracked))
	}
	if t.files > 0 {
		listKey := "gc-removed-list"
		if o.Mode == gc.DryRun {
			listKey = "gc-would-remove"
		}
		b.WriteString("\n" + mdText(p.Sprintf(listKey, strconv.Itoa(t.files))) + "\n\n")
		mdRow(b, p.Sprintf("gc-col-path"), p.Sprintf("gc-col-reason"), p.Sprintf("gc-size"), p.Sprintf("gc-col-age"),
			p.Sprintf("gc-col-timestamp"), p.Sprintf("gc-col-source"))
		b.WriteString("|---|---|--:|--:|---|---|\n")
		shown := min(t.files, MarkdownRemovals)
		for rm := range firstRemovals(o, shown) {
			c := removalCells(rm, now)
			mdRow(b, "`"+mdCode(rm.Path)+"`", c[0], c[1], c[2], c[3], c[4])
		}
		if shown < t.files {
			b.WriteString("\n" + mdText(p.Sprintf("gc-md-more", strconv.Itoa(t.files-shown))) + "\n")
		}
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
		for _, s := range warns {
			b.WriteString("- " + mdText(s) + "\n")
		}
	}
	if len(o.Errors) > 0 {
		b.WriteString("\n### " + p.Sprintf("gc-md-errors") + "\n\n")
		for _, e := range o.Errors {
			b.WriteString("- `" + mdCode(e.Path) + "`: " + mdText(ErrorText(e, lang)) + "\n")
		}
	}
	b.WriteString("\n")
	return b.Flush()
}

func mdRow(b *bufio.Writer, cells ...string) {
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" " + c + " |")
	}
	b.WriteString("\n")
}

// mdText escapes what Markdown (and a table cell) would interpret, and
// quotes non-printable characters.
var mdEscaper = strings.NewReplacer(`\`, `\\`, "|", `\|`, "*", `\*`, "_", `\_`, "`", "\\`", "<", "&lt;", ">", "&gt;",
	"[", `\[`, "]", `\]`, "#", `\#`)

func mdText(s string) string { return mdEscaper.Replace(displayPath(s)) }

// mdCode prepares a path for a code span inside a table: backticks and
// pipes cannot be escaped there, so they are replaced by look-alikes.
func mdCode(s string) string {
	return strings.NewReplacer("`", "'", "|", "¦").Replace(displayPath(s))
}
