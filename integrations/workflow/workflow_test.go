package workflow

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/plangate-gc/plangate-gc/internal/pinned"
)

// workflowFile is the weekly workflow; its name must differ from every
// workflow upstream ships (upstream has its own weekly-gc.yml).
const workflowFile = "river-gc-weekly.yml"

// TestWorkflowLints runs the pinned actionlint (internal/tools/go.mod)
// over the weekly workflow.
func TestWorkflowLints(t *testing.T) {
	t.Parallel()
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	lint := pinned.Command(t, here, "actionlint", "-no-color", "-shellcheck=", "-pyflakes=", workflowFile)
	out, err := lint.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit) && exit.ExitCode() == 1:
		t.Fatalf("actionlint found problems:\n%s", out)
	default:
		t.Fatalf("actionlint did not run: %v\n%s", err, out)
	}
}

type workflow struct {
	Permissions map[string]string `yaml:"permissions"`
	Env         map[string]string `yaml:"env"`
	Jobs        map[string]struct {
		Steps []struct {
			ID   string            `yaml:"id"`
			Name string            `yaml:"name"`
			Uses string            `yaml:"uses"`
			If   string            `yaml:"if"`
			Run  string            `yaml:"run"`
			With map[string]string `yaml:"with"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// TestWorkflowFollowsUpstreamLayout checks what a linter cannot: the
// memory comes from and goes back to the riverbed-memory artifact, river-gc
// is pinned and run with the flags of Part C, and failures open an issue.
func TestWorkflowFollowsUpstreamLayout(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(workflowFile)
	if err != nil {
		t.Fatal(err)
	}
	var wf workflow
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	if wf.Permissions["issues"] != "write" || wf.Permissions["actions"] != "read" {
		t.Errorf("permissions %v: want issues: write and actions: read", wf.Permissions)
	}
	pinned := regexp.MustCompile(`^[\w-]+/[\w-]+@(v\d+(\.\d+\.\d+)?|[0-9a-f]{40}|<full commit sha>)$`)
	var downloads, uploads, issue int
	var gc map[string]string
	for _, job := range wf.Jobs {
		for _, s := range job.Steps {
			if s.Uses != "" && !pinned.MatchString(s.Uses) {
				t.Errorf("step %q: %s is not pinned to an exact version or commit", s.Name, s.Uses)
			}
			switch {
			case strings.HasPrefix(s.Uses, "actions/download-artifact@"):
				if s.With["name"] == "riverbed-memory" && s.With["path"] == ".river/memory" && s.With["run-id"] != "" && s.With["github-token"] != "" {
					downloads++
				}
			case strings.HasPrefix(s.Uses, "actions/upload-artifact@"):
				if s.With["name"] == "riverbed-memory" && s.With["path"] == ".river/memory/index.json" &&
					strings.Contains(s.If, "steps.after.outputs.changed == 'true'") {
					uploads++
				}
			case strings.HasPrefix(s.Uses, "actions/github-script@"):
				if s.If == "failure()" && strings.Contains(s.With["script"], "issues.create") {
					issue++
				}
			case strings.HasPrefix(s.Uses, "plangate-gc/plangate-gc@"):
				// No release exists yet: the README's placeholder, which a
				// user replaces with a commit (integrations/action's
				// TestShippedWorkflowsPinTheREADMEPlaceholder).
				if s.Uses != "plangate-gc/plangate-gc@<full commit sha>" {
					t.Errorf("the Action %s is not pinned at the README's placeholder", s.Uses)
				}
				gc = s.With
			case strings.Contains(s.Run, "go install") || strings.HasPrefix(s.Uses, "actions/setup-go@"):
				t.Errorf("step %q builds river-gc itself; the Action installs (or builds and caches) it", s.Name)
			}
		}
	}
	if downloads != 1 || uploads != 1 || issue != 1 {
		t.Errorf("downloads %d, memory uploads %d, issue steps %d: want 1 each", downloads, uploads, issue)
	}
	if gc == nil {
		t.Fatal("no step uses plangate-gc's Action")
	}
	if gc["force"] != "true" || gc["artifact-name"] != "gc-result" || gc["summary"] == "false" || gc["upload"] == "false" {
		t.Errorf("the Action's inputs %v: want force, the summary and the result uploaded as gc-result", gc)
	}
	if scopes := strings.Fields(gc["scopes"]); !slices.Equal(scopes, []string{"all", "runs", "memory-entries", "eval-ledger"}) {
		t.Errorf("scopes %q: want all and the three opt-in scopes", gc["scopes"])
	}
	if bytes.Contains(data, []byte("@latest")) || bytes.Contains(data, []byte("@main")) {
		t.Error("something is pinned to a moving ref")
	}
}

// TestWorkflowSkipsACheckoutWithNothingToClean: a repository with no
// .river/ or artifacts/ in its checkout and no riverbed-memory artifact
// gets a notice and no river gc step (which would stop with a config
// error and open an issue); with either folder river gc runs. The
// workflow's own script runs as the runner runs it.
func TestWorkflowSkipsACheckoutWithNothingToClean(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not found")
	}
	ss := steps(t)
	root := byID(t, ss, "root")
	if gc := byID(t, ss, "gc"); gc.If != "steps.root.outputs.present == 'true'" {
		t.Errorf("the river gc step runs without a root: if %q", gc.If)
	}
	for _, tc := range []struct {
		name, dir, want string
		notice          bool
	}{{"empty checkout", "", "false", true}, {"memory downloaded", ".river/memory", "true", false}, {"artifacts", "artifacts/evals", "true", false}} {
		dir := t.TempDir()
		if tc.dir != "" {
			write(t, dir, tc.dir+"/x", "{}")
		}
		out := filepath.Join(t.TempDir(), "output")
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", root.Run)
		cmd.Dir, cmd.Env = dir, append(os.Environ(), "GITHUB_OUTPUT="+out)
		log, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", tc.name, err, log)
		}
		b, _ := os.ReadFile(out)
		if got := strings.TrimSpace(string(b)); got != "present="+tc.want || strings.Contains(string(log), "::notice::") != tc.notice {
			t.Errorf("%s: output %q, log %q", tc.name, got, log)
		}
	}
}
