//go:build linux

package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/fserr"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/render"
)

// TestMarkdownStaysBelowTheStepSummaryLimit (SPEC B4): 1,000 removals
// with 4 KB paths, 50,000 errors and 50,000 interrupted paths would make
// megabytes; the summary stays below MarkdownMaxBytes, says where it was
// cut and where the full list is, and folds the long lists.
func TestMarkdownStaysBelowTheStepSummaryLimit(t *testing.T) {
	o := outcome(1000)
	long := strings.Repeat("d/", 2000)
	for i := range o.Scopes[0].Removed {
		o.Scopes[0].Removed[i].Path = fmt.Sprintf(".river/tmp/%sf%05d", long, i)
	}
	in := &gc.Interrupted{Journals: []string{".river/gc-journal"}}
	for i := range 50000 {
		p := fmt.Sprintf(".river/tmp/%sg%05d", long[:200], i)
		in.Removed = append(in.Removed, p)
		o.Errors = append(o.Errors, &fserr.Error{Op: fserr.OpDelete, Path: p, Err: fserr.ErrChanged})
	}
	o.Interrupted = in
	var b bytes.Buffer
	if err := Markdown(&b, o, retention(t), now, render.English); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	if b.Len() >= MarkdownMaxBytes {
		t.Errorf("summary is %d bytes, want < %d", b.Len(), MarkdownMaxBytes)
	}
	if !strings.Contains(s, "the summary was cut here") || !strings.Contains(s, "the full list is in the --json result") {
		t.Errorf("no cut notice")
	}
	if n := strings.Count(s, "<details>"); n != strings.Count(s, "</details>") || n < 1 {
		t.Errorf("%d <details> for %d </details>", n, strings.Count(s, "</details>"))
	}
	// Small lists are not folded.
	b.Reset()
	if err := Markdown(&b, outcome(MarkdownFold), retention(t), now, render.English); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "<details>") {
		t.Errorf("a list of %d is folded", MarkdownFold)
	}
}

// TestMarkdownEscapesAmpersands (SPEC B4): "&rlm;" in a message must not
// render as a bidi mark, nor "<b>" as HTML.
func TestMarkdownEscapesAmpersands(t *testing.T) {
	o := outcome(1)
	o.Warnings = []gc.Warning{{Kind: gc.WarnUnusedExclude, Path: "a&rlm;b<b>"}}
	var b bytes.Buffer
	if err := Markdown(&b, o, retention(t), now, render.English); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	if strings.Contains(s, "&rlm;") || strings.Contains(s, "<b>") || !strings.Contains(s, "a&amp;rlm;b&lt;b&gt;") {
		t.Errorf("not escaped:\n%s", s)
	}
}
