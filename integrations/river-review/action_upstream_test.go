package riverreview

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/upstream"
	"github.com/plangate-gc/plangate-gc/render"
)

// actionScript runs upstream's GitHub Action step that posts a findings
// file to a pull request (runners/github-action/post-inline-comments.cjs)
// with a stub GitHub client, and returns the summary comment it posts.
const actionScript = readStdin + `
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const post = require('./runners/github-action/post-inline-comments.cjs');
const out = [];
for (const file of input) {
  process.env.RIVER_REVIEWER_JSON_PATH = file;
  let body = null, failed = null, inline = 0;
  const github = {
    paginate: async () => [],
    rest: {
      pulls: { createReview: async (r) => { inline += r.comments.length; }, createReviewComment: async () => { inline++; } },
      issues: { listComments: {}, createComment: async (c) => { body = c.body; }, updateComment: async (c) => { body = c.body; } },
    },
  };
  const context = { repo: { owner: 'o', repo: 'r' }, payload: { pull_request: { number: 1, head: { sha: 'h' } } } };
  const core = { info() {}, warning() {}, setFailed(m) { failed = m; } };
  await post({ github, context, core });
  out.push({ body, failed, inline });
}
console.log(JSON.stringify(out));
`

// TestUpstreamActionCommentSaysWhatIsThere: the pull-request comment
// upstream's Action posts for our findings says "No issues found" only for
// a document without findings (never for NO_REVIEW, handoff or warnings),
// and for 200,000 removals (one document, or four merged) it stays under
// GitHub's 65,536-character limit while it gives the count and says where
// the full list is.
func TestUpstreamActionCommentSaysWhatIsThere(t *testing.T) {
	t.Parallel()
	dir := upstream.Dir(t)
	tmp := t.TempDir()
	type file struct {
		name   string
		path   string
		issues int
		big    bool
	}
	var files []file
	write := func(name string, input []byte, lang render.Lang, big bool) {
		out := judge(t, input, render.FormatFindings, lang, true)
		var d struct{ Issues []render.Issue }
		if err := json.Unmarshal(out, &d); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(tmp, name+".json")
		if err := os.WriteFile(p, out, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, file{name, p, len(d.Issues), big})
	}
	for _, fx := range fixtures(t) {
		write(fx.name, fx.input, render.Japanese, false)
	}
	write("removals-200000", removals(200000, 1764374400), render.English, true)
	var four [][]byte
	for range 4 {
		four = append(four, removals(50000, 1764374400))
	}
	write("removals-4x50000-merged", bytes.Join(four, nil), render.Japanese, true)
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.path
	}
	var res []struct {
		Body   *string
		Failed *string
		Inline int
	}
	node(t, dir, actionScript, paths, &res)
	for i, r := range res {
		f := files[i]
		if r.Failed != nil || r.Body == nil {
			t.Errorf("%s: the Action failed (%v) or posted nothing", f.name, r.Failed)
			continue
		}
		body := *r.Body
		if clean := strings.Contains(body, "No issues found"); clean != (f.issues == 0) {
			t.Errorf("%s: %d findings, but the comment says %q", f.name, f.issues, body)
		}
		if len([]rune(body)) > 65536 || len(body) > 4*65536 {
			t.Errorf("%s: comment of %d characters, over GitHub's 65,536", f.name, len([]rune(body)))
		}
		if f.big {
			count := "200000"
			if strings.Contains(f.name, "4x") {
				count = "50000"
			}
			if !strings.Contains(body, count) || !strings.Contains(body, "--format findings") {
				t.Errorf("%s: the comment does not give the count %s and where the full list is:\n%.3000s", f.name, count, body)
			}
			t.Logf("%s: comment of %d characters", f.name, len([]rune(body)))
		}
	}
}

// TestUpstreamValidatesOurSkill: in a copy of upstream with our SKILL.md in
// its registry, upstream's skills:validate accepts it without a warning,
// the skills audit finds nothing wrong with its name or id, the skill
// manifest (skills:manifest, then skills:manifest:check) is clean and holds
// our id once beside upstream's own, and the pinned prettier (when npm can
// install it) finds it formatted.
func TestUpstreamValidatesOurSkill(t *testing.T) {
	t.Parallel()
	dir, rel := ourSkillDir(t)
	out, errOut, code := upstream.NodeExit(t, dir, nil, "scripts/validate-skills.mjs")
	all := string(out) + string(errOut)
	if code != 0 || !strings.Contains(all, "✅ "+rel) {
		t.Fatalf("skills:validate: exit %d\n%s", code, all)
	}
	for _, l := range strings.Split(all, "\n") {
		if strings.Contains(l, rel) && !strings.HasPrefix(l, "✅") {
			t.Errorf("skills:validate about our skill: %s", l)
		}
	}
	out, errOut, code = upstream.NodeExit(t, dir, nil, "scripts/skills-audit.mjs")
	if code != 0 {
		t.Errorf("skills-audit: exit %d\n%s%s", code, out, errOut)
	}
	report, err := os.ReadFile(filepath.Join(dir, "reports", "skills-audit.md"))
	if err != nil {
		t.Fatalf("skills-audit wrote no report: %v", err)
	}
	for _, l := range strings.Split(string(report), "\n") {
		if strings.Contains(l, render.ArtifactSkillID) && (strings.Contains(l, "超過") || strings.Contains(l, "でない") || strings.Contains(l, "重複")) {
			t.Errorf("skills-audit about our skill: %s", l)
		}
	}
	upstream.Node(t, dir, nil, "scripts/generate-skill-manifest.mjs")
	if out, errOut, code := upstream.NodeExit(t, dir, nil, "scripts/generate-skill-manifest.mjs", "--check"); code != 0 {
		t.Errorf("skills:manifest:check: exit %d\n%s%s", code, out, errOut)
	}
	manifest, err := os.ReadFile(filepath.Join(dir, "docs", "data", "skill-manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(manifest), `"id": "`+render.ArtifactSkillID+`"`); n != 1 {
		t.Errorf("manifest lists our id %d times", n)
	}
	if !strings.Contains(string(manifest), `"id": "rr-upstream-plangate-gc-deterministic-001"`) {
		t.Error("manifest lost upstream's own plangate skill: the ids collide")
	}
	prettierCheck(t, filepath.Join(dir, rel))
}
