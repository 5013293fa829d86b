package render_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/pipeline"
	"github.com/plangate-gc/plangate-gc/render"
)

// The rules River Review's engine applies to a line (review-engine.mjs,
// finding-format.mjs, verifier.mjs at c36106a9), checked here without node;
// integrations/river-review runs upstream's own code on the same output.
var (
	lineComment = regexp.MustCompile(`^(.+?):(\d+):\s*(.+)$`)
	evidence    = regexp.MustCompile(`Evidence:\s*(\S.{4,})`)
	actionable  = regexp.MustCompile(`(?:Fix|Suggestion):\s*(.{10,})`)
	fileRef     = regexp.MustCompile(`[\w/-]+(?:\.[\w]+)+`)
	severity    = regexp.MustCompile(`Severity:\s*(blocker|warning|nit)\b`)
)

// TestReviewLinesFollowUpstreamRules: every --format review line of every
// fixture, in both languages, parses as a line comment, carries the six
// labels, has evidence that names no file and an actionable fix; Evidence
// is last, so the first 60 characters hold no number that changes daily.
func TestReviewLinesFollowUpstreamRules(t *testing.T) {
	n := 0
	for name, input := range fixtureInputs(t) {
		for _, lang := range []render.Lang{render.Japanese, render.English} {
			out := runFormat(t, input, render.FormatReview, lang)
			for _, l := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
				if l == render.NoIssues {
					if !bytes.Equal(out, []byte(render.NoIssues+"\n")) {
						t.Errorf("%s %s: NO_ISSUES beside findings", name, lang)
					}
					continue
				}
				n++
				m := lineComment.FindStringSubmatch(strings.TrimSpace(l))
				if m == nil || m[2] != "1" {
					t.Errorf("%s %s: not a line comment on line 1: %q", name, lang, l)
					continue
				}
				msg := m[3]
				for _, label := range []string{"Finding:", "Evidence:", "Impact:", "Fix:", "Severity:", "Confidence: high"} {
					if !strings.Contains(msg, label) {
						t.Errorf("%s %s: no %s in %q", name, lang, label, l)
					}
				}
				ev := evidence.FindStringSubmatch(msg)
				switch {
				case ev == nil:
					t.Errorf("%s %s: evidence too short: %q", name, lang, l)
				case fileRef.MatchString(ev[1]):
					t.Errorf("%s %s: evidence names a file (%s): %q", name, lang, fileRef.FindString(ev[1]), l)
				case !actionable.MatchString(msg) || !severity.MatchString(msg):
					t.Errorf("%s %s: no actionable fix or severity: %q", name, lang, l)
				case strings.Index(msg, "Evidence:") < strings.Index(msg, "Confidence:"):
					t.Errorf("%s %s: Evidence is not last: %q", name, lang, l)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no review line checked")
	}
}

// TestMergeWritesOneDocument: --merge gives exactly one findings document
// and one artifact for a multi-document stream, with every document's
// findings and ids unique.
func TestMergeWritesOneDocument(t *testing.T) {
	input := fixtureInputs(t)["multi-document-stream"]
	per := lines(t, runFormat(t, input, render.FormatFindings, render.English))
	want := 0
	for _, d := range per {
		want += len(d["issues"].([]any))
	}
	for f, key := range map[render.Format]string{render.FormatFindings: "issues", render.FormatArtifact: "findings"} {
		var out bytes.Buffer
		if err := pipeline.Run(bytes.NewReader(input), &out, new(bytes.Buffer),
			pipeline.Options{Format: f, Lang: render.English, Merge: true}); err != nil {
			t.Fatal(err)
		}
		docs := lines(t, out.Bytes())
		if len(docs) != 1 {
			t.Fatalf("%s --merge: %d documents", f, len(docs))
		}
		got := docs[0][key].([]any)
		if len(got) != want {
			t.Errorf("%s --merge: %d findings, the documents have %d", f, len(got), want)
		}
		seen := map[string]bool{}
		for _, is := range got {
			id := is.(map[string]any)["id"].(string)
			if seen[id] {
				t.Errorf("%s --merge: id %s twice", f, id)
			}
			seen[id] = true
		}
	}
}
