package riverreview

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/contracts"
	"github.com/plangate-gc/plangate-gc/internal/upstream"
	"github.com/plangate-gc/plangate-gc/render"
)

// riverGC builds river-gc, runs it on a small tree of all four scopes,
// and returns its --emit-inventory documents and its own one-document
// findings and artifact (--json --json-format findings|artifact).
func riverGC(t *testing.T) (inventory, findings, artifact []byte) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not available to build river-gc")
	}
	bin := buildRiverGC(t)
	root := t.TempDir()
	old := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, f := range []struct {
		path string
		aged bool
	}{{".river/memory/index.json", true}, {".river/memory/s1.json", true}, {".river/memory/s2.json", false},
		{"artifacts/evals/run1/r.json", true}, {"artifacts/evals/run2/r.json", false},
		{"artifacts/review-artifact-1.json", true}, {".river/tmp/t", true}} {
		p := filepath.Join(root, f.path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
		when := time.Date(2025, 11, 28, 0, 0, 0, 0, time.UTC)
		if f.aged {
			when = old
		}
		if err := os.Chtimes(p, when, when); err != nil {
			t.Fatal(err)
		}
	}
	gc := func(args ...string) []byte {
		out, err := exec.Command(bin, append([]string{"--now", "2025-11-29T00:00:00Z", "--root", root, "--lang", "en"}, args...)...).Output()
		if err != nil {
			t.Fatalf("river-gc %v: %v", args, err)
		}
		return out
	}
	inventory = gc("--emit-inventory")
	if n := strings.Count(string(inventory), "\n"); n != 4 {
		t.Fatalf("river-gc emitted %d documents, want one per scope (4)", n)
	}
	return inventory, gc("--json", "--json-format", "findings"), gc("--json", "--json-format", "artifact")
}

// readersScript runs, on every merged file, the functions behind
// upstream's four file readers: evaluate-review-gate's evaluateGate (also
// evaluate-all's gate), review exec --plan's runReviewExecReplay, and river
// run --baseline's read (JSON.parse, findings ?? issues, diffReviews).
const readersScript = readStdin + `
import { evaluateGate } from './scripts/evaluate-review-gate.mjs';
import { runReviewExecReplay } from './src/lib/review-plan.mjs';
import { diffReviews } from './src/lib/review-differ.mjs';
import { scoreReview } from './src/lib/scoring/engine.mjs';
const out = [];
for (const f of input) {
  const r = { name: f.name };
  try {
    const g = await evaluateGate({ input: f.findings, failOnCritical: 1, failOnMajor: 1 });
    r.gatePass = g.pass;
    const doc = JSON.parse(fs.readFileSync(f.findings, 'utf8'));
    r.scored = scoreReview(doc.issues).verdict === doc.decision;
    const a = await runReviewExecReplay({ planFile: f.artifact });
    r.replay = a.status;
    for (const file of [f.findings, f.artifact]) {
      const base = JSON.parse(fs.readFileSync(file, 'utf8'));
      const prev = Array.isArray(base) ? base : (base.findings ?? base.issues ?? []);
      r.baseline = (r.baseline ?? []).concat([diffReviews(prev, []).resolved.length]);
    }
  } catch (err) {
    r.error = String(err?.message ?? err);
  }
  out.push(r);
}
console.log(JSON.stringify(out));
`

type merged struct {
	Name     string `json:"name"`
	Findings string `json:"findings"`
	Artifact string `json:"artifact"`
	issues   []render.Issue
}

// writeMerged writes input's --merge findings document and artifact.
func writeMerged(t *testing.T, dir, name string, input []byte, lang render.Lang) merged {
	t.Helper()
	m := merged{Name: name, Findings: filepath.Join(dir, name+".findings.json"), Artifact: filepath.Join(dir, name+".artifact.json")}
	f, a := judge(t, input, render.FormatFindings, lang, true), judge(t, input, render.FormatArtifact, lang, true)
	if len(jsonLines(t, f)) != 1 || len(jsonLines(t, a)) != 1 {
		t.Fatalf("%s: --merge wrote more than one document", name)
	}
	var d struct{ Issues []render.Issue }
	if err := json.Unmarshal(f, &d); err != nil {
		t.Fatal(err)
	}
	m.issues = d.Issues
	for p, b := range map[string][]byte{m.Findings: f, m.Artifact: a} {
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// TestUpstreamReadsEveryMergedFile: the --merge files of every fixture
// (both languages) and of a river gc run are read by upstream's four
// readers; the gate with --fail-on-major 1 fails exactly when a NO_REVIEW,
// handoff or warning finding is present; and the four real commands
// (evaluate-review-gate.mjs, evaluate-all.mjs --gate-input, river review
// exec --plan, river run --baseline) read the river gc run's files.
func TestUpstreamReadsEveryMergedFile(t *testing.T) {
	t.Parallel()
	dir := upstream.Dir(t)
	tmp := t.TempDir()
	var files []merged
	for _, fx := range fixtures(t) {
		for _, lang := range langs {
			files = append(files, writeMerged(t, tmp, fx.name+"-"+string(lang), fx.input, lang))
		}
	}
	inventory, findings, artifact := riverGC(t)
	gcRun := writeMerged(t, tmp, "river-gc-run", inventory, render.English)
	files = append(files, gcRun)
	// river-gc's own one-document output for the same run.
	own := merged{Name: "river-gc-json-format", Findings: filepath.Join(tmp, "own.findings.json"), Artifact: filepath.Join(tmp, "own.artifact.json")}
	var d struct{ Issues []render.Issue }
	if err := json.Unmarshal(findings, &d); err != nil {
		t.Fatalf("river-gc --json-format findings: %v", err)
	}
	own.issues = d.Issues
	for p, b := range map[string][]byte{own.Findings: findings, own.Artifact: artifact} {
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// river gc raises no 80% alarm where every removal is past the age
	// limit (SPEC B7); the skill's pipe still does (A9 is its contract).
	// Every other finding is the same.
	var piped []render.Issue
	for _, is := range gcRun.issues {
		if is.RuleID != "plangate-gc-deterministic/aggressive" {
			piped = append(piped, is)
		}
	}
	if len(own.issues) != len(piped) {
		t.Errorf("river-gc --json-format findings has %d findings, the pipe %d besides its 80%% alarms", len(own.issues), len(piped))
	}
	files = append(files, own)
	var res []struct {
		Name     string
		GatePass bool
		Scored   bool
		Replay   string
		Baseline []int
		Error    string
	}
	node(t, dir, readersScript, files, &res)
	outSchema, artSchema := contracts.Schema(t, "output.schema.json"), contracts.Schema(t, "review-artifact.schema.json")
	for i, r := range res {
		m := files[i]
		for p, schema := range map[string]interface{ Validate(any) error }{m.Findings: outSchema, m.Artifact: artSchema} {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			var v any
			if err := json.Unmarshal(b, &v); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			if err := schema.Validate(v); err != nil {
				t.Errorf("%s: invalid against River Review's schema: %v", filepath.Base(p), err)
			}
		}
		blocking := 0
		for _, is := range m.issues {
			if is.Severity == "critical" || is.Severity == "major" {
				blocking++
			}
		}
		switch {
		case r.Error != "":
			t.Errorf("%s: upstream cannot read it: %s", r.Name, r.Error)
		case r.GatePass != (blocking == 0):
			t.Errorf("%s: gate pass=%v with %d critical/major findings", r.Name, r.GatePass, blocking)
		case !r.Scored:
			t.Errorf("%s: decision is not upstream's scoreReview verdict", r.Name)
		case r.Replay != "ok":
			t.Errorf("%s: review exec --plan status %q", r.Name, r.Replay)
		case len(m.issues) > 0 && (r.Baseline[0] == 0 || r.Baseline[1] == 0):
			t.Errorf("%s: --baseline saw no finding of %d", r.Name, len(m.issues))
		}
	}
	realReaders(t, dir, gcRun)
}

// realReaders runs upstream's four commands on one merged pair of files.
func realReaders(t *testing.T, dir string, m merged) {
	t.Helper()
	_, errOut, code := upstream.NodeExit(t, dir, nil, "scripts/evaluate-review-gate.mjs", "--input", m.Findings, "--fail-on-major", "1")
	if code == 0 || strings.Contains(string(errOut), "JSON") {
		t.Errorf("evaluate-review-gate --fail-on-major 1 on a run with warnings: exit %d\n%s", code, errOut)
	}
	out, errOut, _ := upstream.NodeExit(t, dir, nil, "scripts/evaluate-all.mjs", "--gate-input", m.Findings,
		"--skip", "planner", "--skip", "fixtures", "--skip", "meta", "--skip", "repo-context", "--skip", "regression")
	if !strings.Contains(string(out), "[PASS] gate") || strings.Contains(string(out)+string(errOut), "Unexpected") {
		t.Errorf("evaluate-all --gate-input (default: fail on critical only):\n%s%s", out, errOut)
	}
	out, errOut, code = upstream.NodeExit(t, dir, nil, "src/cli.mjs", "review", "exec", "--plan", m.Artifact, "--dry-run")
	if code != 0 || !strings.Contains(string(out), render.ArtifactSkillID) {
		t.Errorf("river review exec --plan: exit %d\n%s%s", code, out, errOut)
	}
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A repository with one staged change: river run needs a diff.
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "init"}, {"add", "a.txt"}} {
		if b, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Skipf("git unavailable: %v %s", err, b)
		}
	}
	out, errOut, code = upstream.NodeEnvExit(t, dir, []string{"RIVER_OFFLINE=1"}, nil, "src/cli.mjs", "run", repo, "--baseline", m.Findings)
	want := fmt.Sprintf("| Resolved findings | %d |", len(m.issues))
	if code != 0 || strings.Contains(string(errOut), "--baseline comparison failed") || !strings.Contains(string(out), want) {
		t.Errorf("river run --baseline: exit %d, want %q\n%s%s", code, want, out, errOut)
	}
}
