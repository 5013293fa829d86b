package riverreview

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/upstream"
	"github.com/plangate-gc/plangate-gc/render"
)

// scoreScript scores every findings document with upstream's own
// scoreReview and returns its verdicts.
const scoreScript = readStdin + `
import { scoreReview } from './src/lib/scoring/engine.mjs';
console.log(JSON.stringify(input.map((d) => scoreReview(d.issues).verdict)));
`

// TestUpstreamScoresEveryDocumentAsOurDecision: on every findings document
// of every fixture (both languages, one per document and merged), and on
// documents with 0 to 30 removals (past the aggregation threshold), our decision is upstream's
// scoreReview verdict, and NO_REVIEW and handoff documents score
// human-review-required.
func TestUpstreamScoresEveryDocumentAsOurDecision(t *testing.T) {
	t.Parallel()
	dir := upstream.Dir(t)
	type doc struct {
		Issues   []render.Issue `json:"issues"`
		Decision string         `json:"decision"`
	}
	var docs []doc
	var names []string
	var statuses []string
	add := func(name string, input []byte, lang render.Lang, merge bool) {
		lines := jsonLines(t, judge(t, input, render.FormatFindings, lang, merge))
		var st []string
		if !merge {
			for _, l := range jsonLines(t, judge(t, input, render.FormatJSON, lang, false)) {
				var v struct{ Status string }
				_ = json.Unmarshal(l, &v)
				st = append(st, v.Status)
			}
		}
		for i, l := range lines {
			var d doc
			if err := json.Unmarshal(l, &d); err != nil {
				t.Fatal(err)
			}
			docs = append(docs, d)
			names = append(names, fmt.Sprintf("%s/%s/%d merged=%v", name, lang, i, merge))
			s := ""
			if !merge {
				s = st[i]
			}
			statuses = append(statuses, s)
		}
	}
	for _, fx := range fixtures(t) {
		for _, lang := range langs {
			add(fx.name, fx.input, lang, false)
			add(fx.name, fx.input, lang, true)
		}
	}
	for n := range 31 {
		add(fmt.Sprintf("removals-%d", n), removals(n, 1764374400), render.English, false)
	}
	var verdicts []string
	node(t, dir, scoreScript, docs, &verdicts)
	if len(verdicts) != len(docs) {
		t.Fatalf("%d verdicts for %d documents", len(verdicts), len(docs))
	}
	for i, d := range docs {
		if verdicts[i] != d.Decision {
			t.Errorf("%s: decision %s, upstream's scoreReview says %s", names[i], d.Decision, verdicts[i])
		}
		if (statuses[i] == "no_review" || statuses[i] == "handoff") && verdicts[i] != render.DecisionRequired {
			t.Errorf("%s: a %s document scores %s", names[i], statuses[i], verdicts[i])
		}
	}
	t.Logf("%d documents scored, every decision equal to upstream's", len(docs))
}

// fingerprintScript fingerprints yesterday's and today's findings with
// upstream's computeFingerprint and diffs them with diffReviews.
const fingerprintScript = readStdin + `
import { computeFingerprint } from './src/lib/finding-fingerprint.mjs';
import { diffReviews } from './src/lib/review-differ.mjs';
import { parseLineComments } from './src/lib/review-engine.mjs';
const lines = (text) => (parseLineComments(text) ?? []).map((c) => ({ ruleId: 'unknown', ...c }));
console.log(JSON.stringify(input.map((p) => {
  const [a, b] = p.review ? [lines(p.before), lines(p.after)] : [p.before, p.after];
  const d = diffReviews(a, b);
  // A REMOVE is unchanged when the same file is a REMOVE of the same kind
  // the next day (rule, or the Finding: label of a line).
  const kind = (f) => (p.review ? /Finding: ([^(]*)/.exec(f.message)?.[1] : f.ruleId);
  const isRemove = (f) => (p.review ? f.message.startsWith('Finding: REMOVE') : f.ruleId.includes('/remove-'));
  const unchanged = a.filter((f) => isRemove(f) && b.some((g) => g.file === f.file && kind(g) === kind(f)));
  return { before: unchanged.map(computeFingerprint), after: b.map(computeFingerprint),
    files: unchanged.map((f) => f.file), new: d.new.length, resolved: d.resolved.length,
    distinct: new Set(a.map(computeFingerprint)).size, total: a.length };
})));
`

// TestUpstreamKeepsFingerprintsAcrossDays: a document judged at `now` and
// one day later keeps the upstream fingerprint of every REMOVE that is
// still a REMOVE, in findings documents and in review lines, for every
// fixture whose input is one document.
func TestUpstreamKeepsFingerprintsAcrossDays(t *testing.T) {
	t.Parallel()
	dir := upstream.Dir(t)
	var in []map[string]any
	var names []string
	checked := 0
	for _, fx := range fixtures(t) {
		var v map[string]any
		dec := json.NewDecoder(bytes.NewReader(fx.input))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil || dec.More() {
			continue // a gate case or several documents
		}
		now, ok := v["now"].(json.Number)
		if !ok {
			continue
		}
		n, err := now.Int64()
		if err != nil {
			continue
		}
		v["now"] = n + 86400
		later, _ := json.Marshal(v)
		for _, lang := range langs {
			for _, review := range []bool{false, true} {
				f := render.FormatFindings
				if review {
					f = render.FormatReview
				}
				before, after := judge(t, fx.input, f, lang, false), judge(t, later, f, lang, false)
				p := map[string]any{"review": review}
				if review {
					p["before"], p["after"] = string(before), string(after)
				} else {
					var b, a struct{ Issues []render.Issue }
					_ = json.Unmarshal(before, &b)
					_ = json.Unmarshal(after, &a)
					p["before"], p["after"] = b.Issues, a.Issues
				}
				in = append(in, p)
				names = append(names, fmt.Sprintf("%s/%s/review=%v", fx.name, lang, review))
			}
		}
		checked++
	}
	var res []struct {
		Before, After, Files []string
		New, Resolved        int
		Distinct, Total      int
	}
	node(t, dir, fingerprintScript, in, &res)
	persisted := 0
	for i, r := range res {
		if r.Distinct != r.Total {
			t.Errorf("%s: %d findings share %d fingerprints; upstream would merge them", names[i], r.Total, r.Distinct)
		}
		after := map[string]bool{}
		for _, fp := range r.After {
			after[fp] = true
		}
		for j, fp := range r.Before {
			if !after[fp] {
				t.Errorf("%s: %s lost its fingerprint after one day", names[i], r.Files[j])
			}
			persisted++
		}
	}
	if checked == 0 || persisted == 0 {
		t.Fatal("no fixture was checked")
	}
	t.Logf("%d fixtures, %d unchanged REMOVEs kept their fingerprint across a day", checked, persisted)
}
