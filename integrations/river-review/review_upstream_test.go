package riverreview

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/render"
)

// reviewScript runs, for every output, upstream's line parser, format
// check and verifier on each line, then generateReview with a model stub
// that relays the output verbatim (fetch answers with it), and reports
// what upstream kept.
const reviewScript = readStdin + `
import { parseLineComments, generateReview } from './src/lib/review-engine.mjs';
import { validateFindingMessage } from './src/lib/finding-format.mjs';
import { verifyFinding } from './src/lib/verifier.mjs';
import { loadSkillFile } from './runners/core/skill-loader.mjs';
const skill = await loadSkillFile(input.skill);
let relayed = '';
globalThis.fetch = async () => ({ ok: true, json: async () => ({ choices: [{ message: { content: relayed } }] }) });
const out = [];
for (const o of input.outputs) {
  const lines = o.text.split('\n').filter((l) => l.trim() !== '');
  const parsed = parseLineComments(o.text);
  const bad = [];
  for (const c of parsed ?? []) {
    const f = validateFindingMessage(c.message);
    if (!f.ok) bad.push({ line: c.file, format: f });
    const v = verifyFinding({ finding: c, diff: '', skill });
    if (!v.verified) bad.push({ line: c.file, reasons: v.reasons });
  }
  const r = { name: o.name, lines: lines.length, parsed: parsed === null ? -1 : parsed.length, bad };
  if (parsed && parsed.length > 0) {
    relayed = o.text;
    const rev = await generateReview({ diff: { diffText: '', files: [] }, plan: { selected: [skill] },
      phase: 'upstream', apiKey: 'stub-key' });
    r.llmUsed = rev.debug.llmUsed === true;
    r.llmError = rev.debug.llmError ?? null;
    r.kept = rev.findings.length;
    r.rejected = rev.debug.verifierRejected;
  }
  out.push(r);
}
console.log(JSON.stringify(out));
`

type reviewResult struct {
	Name     string `json:"name"`
	Lines    int    `json:"lines"`
	Parsed   int    `json:"parsed"`
	Bad      []any  `json:"bad"`
	LLMUsed  bool   `json:"llmUsed"`
	LLMError string `json:"llmError"`
	Kept     int    `json:"kept"`
	Rejected []any  `json:"rejected"`
}

// TestUpstreamKeepsEveryReviewLine: every --format review line of every
// fixture (both languages), of a merged river gc-sized run and of a
// 200,000-removal document passes upstream's parseLineComments,
// validateFindingMessage and verifyFinding, and generateReview with a
// model relaying the output verbatim keeps every finding.
func TestUpstreamKeepsEveryReviewLine(t *testing.T) {
	t.Parallel()
	dir, rel := ourSkillDir(t)
	type output struct {
		Name string `json:"name"`
		Text string `json:"text"`
	}
	var outputs []output
	for _, fx := range fixtures(t) {
		for _, lang := range langs {
			outputs = append(outputs, output{fx.name + "/" + string(lang), string(judge(t, fx.input, render.FormatReview, lang, false))})
		}
	}
	outputs = append(outputs, output{"removals/en", string(judge(t, removals(25, 1764374400), render.FormatReview, render.English, false))})
	all := bytes.Join([][]byte{removals(5, 1764374400), removals(200000, 1764374400)}, nil)
	outputs = append(outputs, output{"removals/ja", string(judge(t, all, render.FormatReview, render.Japanese, false))})
	var res []reviewResult
	node(t, dir, reviewScript, map[string]any{"skill": filepath.Join(dir, rel), "outputs": outputs}, &res)
	lines, kept := 0, 0
	for i, r := range res {
		text := outputs[i].Text
		switch {
		case strings.TrimSpace(text) == render.NoIssues:
			if r.Parsed != 0 {
				t.Errorf("%s: NO_ISSUES parsed as %d findings", r.Name, r.Parsed)
			}
			continue
		case r.Parsed != r.Lines:
			t.Errorf("%s: upstream parsed %d of %d lines", r.Name, r.Parsed, r.Lines)
		}
		if len(r.Bad) > 0 {
			t.Errorf("%s: lines upstream rejects: %v", r.Name, r.Bad)
		}
		if !r.LLMUsed || r.Kept != r.Lines {
			t.Errorf("%s: generateReview kept %d of %d relayed lines (llmUsed %v, %s, rejected %v)",
				r.Name, r.Kept, r.Lines, r.LLMUsed, r.LLMError, r.Rejected)
		}
		lines += r.Lines
		kept += r.Kept
	}
	t.Logf("upstream kept %d of %d review lines over %d outputs", kept, lines, len(res))
	if lines == 0 {
		t.Fatal("no review line was checked")
	}
}
