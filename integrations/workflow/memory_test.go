package workflow

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/plangate-gc/plangate-gc/internal/contracts"
)

// step is one step of the weekly workflow.
type step struct {
	ID   string            `yaml:"id"`
	Name string            `yaml:"name"`
	Uses string            `yaml:"uses"`
	If   string            `yaml:"if"`
	Run  string            `yaml:"run"`
	Env  map[string]string `yaml:"env"`
	With map[string]string `yaml:"with"`
}

// steps returns the steps of the workflow's one job, in order.
func steps(t *testing.T) []step {
	t.Helper()
	data, err := os.ReadFile(workflowFile)
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Jobs map[string]struct {
			Steps []step `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	if len(wf.Jobs) != 1 {
		t.Fatalf("%d jobs, want 1", len(wf.Jobs))
	}
	for _, j := range wf.Jobs {
		return j.Steps
	}
	return nil
}

// byID returns the step with id.
func byID(t *testing.T, ss []step, id string) step {
	t.Helper()
	for _, s := range ss {
		if s.ID == id {
			return s
		}
	}
	t.Fatalf("no step with id %q", id)
	return step{}
}

// upstreamWorkflows returns upstream's workflow and action files.
func upstreamWorkflows(t *testing.T) map[string][]byte {
	t.Helper()
	dir := contracts.Dir(t)
	out := map[string][]byte{}
	for _, glob := range []string{".github/workflows/*.yml", "upstream/.github/workflows/*.yml", "upstream/runners/*/action.yml"} {
		paths, _ := filepath.Glob(filepath.Join(dir, glob))
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			out[p] = data
		}
	}
	if len(out) == 0 {
		t.Skipf("no upstream workflows under %s", dir)
	}
	return out
}

// TestWorkflowUsesUpstreamActionVersions: every action upstream also uses
// is at a version upstream uses, and the file name is not one of upstream's
// workflows (it must sit beside upstream's weekly-gc.yml, not replace it).
func TestWorkflowUsesUpstreamActionVersions(t *testing.T) {
	t.Parallel()
	theirs := map[string][]string{}
	uses := regexp.MustCompile(`(?m)uses:\s*([\w.-]+/[\w.-]+)@(\S+)`)
	for p, data := range upstreamWorkflows(t) {
		if filepath.Base(p) == workflowFile {
			t.Errorf("%s would replace upstream's %s", workflowFile, p)
		}
		for _, m := range uses.FindAllStringSubmatch(string(data), -1) {
			theirs[m[1]] = append(theirs[m[1]], m[2])
		}
	}
	if len(theirs["actions/checkout"]) == 0 {
		t.Fatal("found no actions/checkout in upstream's workflows: the comparison would prove nothing")
	}
	shared := 0
	for _, s := range steps(t) {
		action, version, ok := strings.Cut(s.Uses, "@")
		if !ok {
			continue
		}
		if vs, known := theirs[action]; known {
			shared++
			if !slices.Contains(vs, version) {
				t.Errorf("step %q: %s, upstream uses %s@%v", s.Name, s.Uses, action, vs)
			}
		}
	}
	if shared < 4 {
		t.Errorf("%d actions in common with upstream, want checkout, download-artifact, upload-artifact, github-script", shared)
	}
}

// TestMemoryTouchedOnlyWhenItExists: with no riverbed-memory artifact
// (run-id empty) nothing is downloaded, fingerprinted or uploaded, so no
// artifact is created; the upload runs only when the fingerprints differ.
func TestMemoryTouchedOnlyWhenItExists(t *testing.T) {
	t.Parallel()
	ss := steps(t)
	for _, id := range []string{"before", "after"} {
		if s := byID(t, ss, id); !strings.Contains(s.If, "steps.memory.outputs.run-id != ''") {
			t.Errorf("step %q runs without a downloaded artifact: if %q", id, s.If)
		}
	}
	for _, s := range ss {
		if s.With["name"] != "riverbed-memory" {
			continue
		}
		switch {
		case strings.HasPrefix(s.Uses, "actions/download-artifact@"):
			if s.If != "steps.memory.outputs.run-id != ''" {
				t.Errorf("download runs without an artifact: if %q", s.If)
			}
		case strings.HasPrefix(s.Uses, "actions/upload-artifact@"):
			if s.If != "always() && steps.after.outputs.changed == 'true'" {
				t.Errorf("upload of riverbed-memory: if %q, want it only when the memory changed", s.If)
			}
		default:
			t.Errorf("step %q names riverbed-memory: %s", s.Name, s.Uses)
		}
	}
	gc, after := slices.IndexFunc(ss, func(s step) bool { return s.ID == "gc" }), slices.IndexFunc(ss, func(s step) bool { return s.ID == "after" })
	if before := slices.IndexFunc(ss, func(s step) bool { return s.ID == "before" }); !(before < gc && gc < after) {
		t.Errorf("steps before %d, gc %d, after %d: want the fingerprints around river gc", before, gc, after)
	}
}

// TestMemoryFingerprintScripts runs the workflow's own before/after
// scripts the way the runner does (bash -e -o pipefail, $GITHUB_OUTPUT a
// file) on a memory directory that stays the same, is rewritten, or loses
// a file.
func TestMemoryFingerprintScripts(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not found")
	}
	ss := steps(t)
	before, after := byID(t, ss, "before"), byID(t, ss, "after")
	runStep := func(dir string, s step, env ...string) map[string]string {
		t.Helper()
		out := filepath.Join(t.TempDir(), "output")
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", s.Run)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), append(env, "GITHUB_OUTPUT="+out)...)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("step %q: %v\n%s", s.ID, err, b)
		}
		data, _ := os.ReadFile(out)
		kv := map[string]string{}
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			k, v, _ := strings.Cut(line, "=")
			kv[k] = v
		}
		return kv
	}
	for _, tc := range []struct {
		name   string
		change func(dir string)
		want   string
	}{
		{"unchanged", func(string) {}, "false"},
		{"same bytes rewritten", func(dir string) { write(t, dir, ".river/memory/index.json", "{}\n") }, "false"},
		{"compacted", func(dir string) { write(t, dir, ".river/memory/index.json", "{ }\n") }, "true"},
		{"a file gone", func(dir string) { os.Remove(filepath.Join(dir, ".river/memory/other.json")) }, "true"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, ".river/memory/index.json", "{}\n")
			write(t, dir, ".river/memory/other.json", "[]\n")
			sum := runStep(dir, before)["sha256"]
			if len(sum) != 64 {
				t.Fatalf("before: sha256=%q", sum)
			}
			tc.change(dir)
			if got := runStep(dir, after, "BEFORE="+sum)["changed"]; got != tc.want {
				t.Errorf("changed=%q, want %q", got, tc.want)
			}
		})
	}
}

// write creates dir/rel with content.
func write(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
