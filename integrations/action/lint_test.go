package action

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/plangate-gc/plangate-gc/internal/pinned"
)

// placeholder is what every shipped workflow and doc pins the action at
// until a release exists: the README's "@<full commit sha>", which a user
// replaces with a commit of this repository.
const placeholder = "<full commit sha>"

// example is the workflow users copy (example.yml); the tests lint it
// with its uses: pointed at the checked-out action (./), so that the
// pinned actionlint checks it against action.yml's inputs and outputs.
const example = "example.yml"

const remoteUses = "uses: plangate-gc/plangate-gc@" + placeholder

// usesAction reads example.yml with the action taken from the repository.
func usesAction(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), remoteUses) {
		t.Fatalf("%s does not say %q", example, remoteUses)
	}
	return strings.Replace(string(b), remoteUses, "uses: ./", 1)
}

// lint runs the pinned actionlint over workflow in a copy of the
// repository's action: action.yml at the root, the workflow in
// .github/workflows, in a git repository.
func lint(t *testing.T, workflow string) (string, error) {
	t.Helper()
	dir := t.TempDir()
	action, err := os.ReadFile(filepath.Join(pinned.Root(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".github", "workflows"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "action.yml"), action, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".github", "workflows", "gc.yml"), []byte(workflow), 0o644); err != nil {
		t.Fatal(err)
	}
	// actionlint finds the project (and ./ of uses:) by its .git.
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Skipf("git init: %v\n%s", err, out)
	}
	cmd := pinned.Command(t, dir, "actionlint", "-no-color", "-shellcheck=", "-pyflakes=")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestActionLints: example.yml, which uses every input and output of
// action.yml, passes actionlint; one with an input or output action.yml does not
// declare fails it (so the check reads action.yml, it is not vacuous).
func TestActionLints(t *testing.T) {
	t.Parallel()
	workflow := usesAction(t)
	out, err := lint(t, workflow)
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit) && exit.ExitCode() == 1:
		t.Fatalf("actionlint found problems:\n%s", out)
	default:
		t.Fatalf("actionlint did not run: %v\n%s", err, out)
	}
	for _, tc := range []struct{ name, from, to, want string }{
		{"unknown input", "artifact-name: gc-result", "artifact-nam: gc-result", "artifact-nam"},
		{"unknown output", "outputs.exit-code", "outputs.exit-status", "exit-status"},
	} {
		out, err := lint(t, strings.Replace(workflow, tc.from, tc.to, 1))
		if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(out, tc.want) {
			t.Errorf("%s: actionlint exit %v, want 1 naming %q:\n%s", tc.name, err, tc.want, out)
		}
	}
}

// TestActionInputsAreAllUsed: every input action.yml declares is used by
// a step, every input a step uses is declared, and every INPUT_ variable
// a step sets is read by run.sh (or plan.sh, which it sources): no input is silently ignored.
func TestActionInputsAreAllUsed(t *testing.T) {
	t.Parallel()
	text, err := os.ReadFile(filepath.Join(pinned.Root(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]struct {
			Description string `yaml:"description"`
		} `yaml:"inputs"`
		Runs struct {
			Using string `yaml:"using"`
			Steps []struct {
				Env map[string]string `yaml:"env"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(text, &action); err != nil {
		t.Fatal(err)
	}
	if action.Runs.Using != "composite" {
		t.Errorf("runs.using = %q, want composite", action.Runs.Using)
	}
	used := map[string]bool{}
	for _, m := range regexp.MustCompile(`inputs\.([a-z-]+)`).FindAllStringSubmatch(string(text), -1) {
		used[m[1]] = true
	}
	for name, in := range action.Inputs {
		if !used[name] {
			t.Errorf("input %s is declared but no step uses it", name)
		}
		if in.Description == "" {
			t.Errorf("input %s has no description", name)
		}
	}
	for name := range used {
		if _, ok := action.Inputs[name]; !ok {
			t.Errorf("a step uses inputs.%s, which is not declared", name)
		}
	}
	var run []byte
	for _, script := range []string{"run.sh", "plan.sh"} { // run.sh sources plan.sh
		b, err := os.ReadFile(script)
		if err != nil {
			t.Fatal(err)
		}
		run = append(run, b...)
	}
	for _, step := range action.Runs.Steps {
		for name := range step.Env {
			if strings.HasPrefix(name, "INPUT_") && !strings.Contains(string(run), "${"+name) {
				t.Errorf("the run step sets %s, which run.sh does not read", name)
			}
		}
	}
}
