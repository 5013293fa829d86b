package action

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/plangate-gc/plangate-gc/internal/pinned"
)

// uploadOf returns what action.yml's upload step for the plan uploads:
// its with.path expression and its with.name one.
func uploadOf(t *testing.T) (path, name string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(pinned.Root(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a struct {
		Runs struct {
			Steps []struct {
				Name string            `yaml:"name"`
				Uses string            `yaml:"uses"`
				With map[string]string `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(b, &a); err != nil {
		t.Fatal(err)
	}
	for _, st := range a.Runs.Steps {
		if strings.HasPrefix(st.Uses, "actions/upload-artifact@") && strings.Contains(st.With["path"], "plan-file") {
			return st.With["path"], st.With["name"]
		}
	}
	t.Fatal("action.yml has no step uploading the plan")
	return "", ""
}

// TestActionPlanThenApply emulates the two jobs of docs/ci.md's workflow
// from action.yml (SPEC J3): a pull request's job runs the action with
// plan-out, which deletes nothing, writes the plan's digest into the step
// summary and hands the plan file to the upload step; after a new old
// file appears, a later job runs the action with force and apply on the
// downloaded plan, which deletes exactly the planned files.
func TestActionPlanThenApply(t *testing.T) {
	t.Parallel()
	repo := t.TempDir()
	day := func(d int) time.Time { return time.Date(2025, 11, 29-d, 0, 0, 0, 0, time.UTC) }
	write := func(name string, age int) {
		p := filepath.Join(repo, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, day(age), day(age))
	}
	write(".river/tmp/week.tmp", 8)
	write(".river/tmp/day.tmp", 1)
	ref := "0123456789abcdef0123456789abcdef01234567"
	cache := prebuilt(t, ref)
	common := map[string]string{"base-url": "http://127.0.0.1:9/no-release-here"}
	with := func(m map[string]string) map[string]string {
		for k, v := range common {
			m[k] = v
		}
		return m
	}
	// Job 1, on the pull request.
	planDir := t.TempDir()
	e := &emulation{action: readAction(t), ref: ref, outputs: map[string]map[string]string{}, cache: cache,
		with: with(map[string]string{"plan-out": filepath.Join(planDir, "gc-plan.json"), "now": "2025-11-29T00:00:00Z", "retention-days": "90\ntmp=7\n"})}
	out, r, code := e.run(t, repo)
	if code != 0 {
		t.Fatalf("plan job: exit %d\n%s", code, out)
	}
	if _, err := os.Lstat(filepath.Join(repo, ".river/tmp/week.tmp")); err != nil {
		t.Fatalf("the plan job deleted: %v", err)
	}
	uploadPath, uploadName := uploadOf(t)
	uploaded := e.expand(t, uploadPath)
	if uploaded != filepath.Join(planDir, "gc-plan.json") || e.expand(t, uploadName) != "gc-plan" {
		t.Fatalf("the upload step uploads %q as %q", uploaded, e.expand(t, uploadName))
	}
	plan := readFile(t, uploaded)
	digest := regexp.MustCompile(`"digest": "(sha256:[0-9a-f]{64})"`).FindStringSubmatch(plan)
	summary := readFile(t, r.summary)
	if digest == nil || !strings.Contains(summary, "Items this plan removes: 1 (listed above). Digest: `"+digest[1]+"`") ||
		!strings.Contains(summary, "week.tmp") {
		t.Errorf("the step summary does not show the plan:\n%s", summary)
	}
	// Between the jobs: the artifact is downloaded elsewhere, and the tree
	// gains a file the plan does not name.
	downloaded := filepath.Join(t.TempDir(), "gc-plan.json")
	if err := os.WriteFile(downloaded, []byte(plan), 0o644); err != nil {
		t.Fatal(err)
	}
	write(".river/tmp/new-old.tmp", 30)
	// Job 2, in the environment with required reviewers.
	e2 := &emulation{action: e.action, ref: ref, outputs: map[string]map[string]string{}, cache: cache,
		with: with(map[string]string{"force": "true", "apply": downloaded})}
	out, _, code = e2.run(t, repo)
	if code != 0 {
		t.Fatalf("apply job: exit %d\n%s", code, out)
	}
	_, errWeek := os.Lstat(filepath.Join(repo, ".river/tmp/week.tmp"))
	_, errNew := os.Lstat(filepath.Join(repo, ".river/tmp/new-old.tmp"))
	_, errDay := os.Lstat(filepath.Join(repo, ".river/tmp/day.tmp"))
	if !os.IsNotExist(errWeek) || errNew != nil || errDay != nil {
		t.Errorf("apply: week.tmp %v (planned), new-old.tmp %v (not planned), day.tmp %v (kept)\n%s", errWeek, errNew, errDay, out)
	}
	if res := readFile(t, e2.outputs["run"]["result-file"]); !strings.Contains(res, `"not-planned"`) || e2.outputs["run"]["plan-file"] != "" {
		t.Errorf("apply result or outputs: %v\n%s", e2.outputs["run"], res)
	}
}

// TestPlanWorkflowOfTheDocsLints: the two-job workflow docs/ci.md shows
// passes actionlint against this action.yml (its inputs and the plan
// artifact's name included).
func TestPlanWorkflowOfTheDocsLints(t *testing.T) {
	t.Parallel()
	doc := readFile(t, filepath.Join(pinned.Root(t), "docs/ci.md"))
	_, after, ok := strings.Cut(doc, "## Plan and apply")
	m := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindStringSubmatch(after)
	if !ok || m == nil {
		t.Fatal("docs/ci.md shows no plan-and-apply workflow")
	}
	workflow := strings.ReplaceAll(m[1], "uses: plangate-gc/plangate-gc@<full commit sha>", "uses: ./")
	if strings.Count(workflow, "uses: ./") != 2 || !strings.Contains(workflow, "name: gc-plan") {
		t.Fatalf("the workflow does not use the action twice and download gc-plan:\n%s", workflow)
	}
	if out, err := lint(t, workflow); err != nil {
		t.Fatalf("actionlint: %v\n%s", err, out)
	}
}
