package action

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/plangate-gc/plangate-gc/internal/longtest"
	"github.com/plangate-gc/plangate-gc/internal/pinned"
)

// actionFile is the part of action.yml the emulator reads.
type actionFile struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

// actionStep is one step of action.yml's composite run.
type actionStep struct {
	ID   string            `yaml:"id"`
	Name string            `yaml:"name"`
	If   string            `yaml:"if"`
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	Env  map[string]string `yaml:"env"`
	With map[string]string `yaml:"with"`
}

// expression is one ${{ … }} of action.yml.
var expression = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// emulation runs the steps of action.yml as a runner does: each run step
// as `bash -e` with the job's environment, GitHub's variables and the
// step's env (which wins over the job's), its GITHUB_OUTPUT read back
// into steps.<id>.outputs. It understands the expressions action.yml
// uses (inputs.X, github.action_ref, steps.ID.outputs.X, a || b) and
// fails on any other, so action.yml cannot outgrow it unnoticed.
// actions/cache/restore and actions/cache/save are emulated by the
// directory cache (one subdirectory per key; none when cache is empty:
// every restore misses and nothing is saved); other uses: steps
// (upload-artifact) are skipped.
type emulation struct {
	action  actionFile
	with    map[string]string
	ref     string
	outputs map[string]map[string]string
	cache   string
	saved   []string // the keys saved, in order
}

func (e *emulation) eval(t *testing.T, expr string) string {
	t.Helper()
	for alt := range strings.SplitSeq(expr, "||") {
		alt = strings.TrimSpace(alt)
		var v string
		switch parts := strings.Split(alt, "."); {
		case len(parts) == 2 && parts[0] == "inputs":
			in, ok := e.action.Inputs[parts[1]]
			if !ok {
				t.Fatalf("action.yml uses undeclared input %s", parts[1])
			}
			v = in.Default
			if w, ok := e.with[parts[1]]; ok {
				v = w
			}
		case alt == "github.action_ref":
			v = e.ref
		case len(parts) == 4 && parts[0] == "steps" && parts[2] == "outputs":
			v = e.outputs[parts[1]][parts[3]]
		default:
			t.Fatalf("the emulator does not know the expression %q of action.yml", alt)
		}
		if v != "" {
			return v
		}
	}
	return ""
}

func (e *emulation) expand(t *testing.T, s string) string {
	return expression.ReplaceAllStringFunc(s, func(m string) string {
		return e.eval(t, expression.FindStringSubmatch(m)[1])
	})
}

// run runs every run step in dir with jobEnv and returns the steps'
// combined output, the runner and the exit code of the first failing
// step (0 if none).
func (e *emulation) run(t *testing.T, dir string, jobEnv ...string) (string, runner, int) {
	t.Helper()
	r := newRunner(t)
	root := pinned.Root(t)
	var all strings.Builder
	for i, st := range e.action.Runs.Steps {
		if st.Run == "" {
			if strings.HasPrefix(st.Uses, "actions/cache/") && e.condition(t, st.If) {
				e.useCache(t, st)
			}
			continue // uses: actions/upload-artifact
		}
		if !e.condition(t, st.If) {
			continue
		}
		output := filepath.Join(r.temp, fmt.Sprintf("output-%d", i))
		env := append(os.Environ(), jobEnv...)
		env = append(env, "RUNNER_OS=Linux", "RUNNER_ARCH=X64", "RUNNER_TEMP="+r.temp, "GITHUB_ACTION_PATH="+root,
			"GITHUB_ACTION_REF="+e.ref, "GITHUB_PATH="+r.path, "GITHUB_OUTPUT="+output, "GITHUB_STEP_SUMMARY="+r.summary)
		for k, v := range st.Env {
			env = append(env, k+"="+e.expand(t, v))
		}
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", e.expand(t, st.Run))
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		all.Write(out)
		if b, rerr := os.ReadFile(output); rerr == nil {
			for line := range strings.SplitSeq(strings.TrimSpace(string(b)), "\n") {
				if k, v, ok := strings.Cut(line, "="); ok {
					if e.outputs[st.ID] == nil {
						e.outputs[st.ID] = map[string]string{}
					}
					e.outputs[st.ID][k] = v
				}
			}
		}
		if err != nil {
			return all.String(), r, cmd.ProcessState.ExitCode()
		}
	}
	return all.String(), r, 0
}

// condition evaluates a step's if: empty, or one comparison X == 'v' or
// X != 'v' of an expression eval knows; any other fails the test.
func (e *emulation) condition(t *testing.T, cond string) bool {
	t.Helper()
	if cond == "" {
		return true
	}
	m := regexp.MustCompile(`^(\S+) (==|!=) '([^']*)'$`).FindStringSubmatch(strings.TrimSpace(cond))
	if m == nil {
		t.Fatalf("the emulator does not know the condition %q of action.yml", cond)
	}
	return (e.eval(t, m[1]) == m[3]) == (m[2] == "==")
}

// useCache emulates actions/cache/restore (copy the key's directory to
// path and set cache-hit; a miss sets nothing, as the action does) and
// actions/cache/save (copy path to the key's directory).
func (e *emulation) useCache(t *testing.T, st actionStep) {
	t.Helper()
	path, key := e.expand(t, st.With["path"]), e.expand(t, st.With["key"])
	if path == "" || key == "" || strings.ContainsAny(key, "/,") {
		t.Fatalf("step %q: path %q, key %q", st.Name, path, key)
	}
	if e.cache == "" {
		return
	}
	stored := filepath.Join(e.cache, key)
	switch st.Uses {
	case "actions/cache/restore@v4":
		if _, err := os.Stat(stored); err == nil {
			copyDir(t, stored, path)
			e.outputs[st.ID] = map[string]string{"cache-hit": "true"}
		}
	case "actions/cache/save@v4":
		copyDir(t, path, stored)
		e.saved = append(e.saved, key)
	default:
		t.Fatalf("the emulator does not know %s", st.Uses)
	}
}

// copyDir copies the regular files below from to to, with their modes.
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}

func readAction(t *testing.T) actionFile {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(pinned.Root(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a actionFile
	if err := yaml.Unmarshal(b, &a); err != nil {
		t.Fatal(err)
	}
	return a
}

// TestActionAtACommit emulates a workflow using the action at a commit
// and at a branch, with no release anywhere (no base-url is served): the
// install step takes river-gc from the Actions cache at the commit (a
// build made beforehand, prebuilt) and builds it from the action's own
// checkout at the branch (a long suite: the release's configuration
// compiles every package), saying which in a ::notice::; the run step
// uses that river-gc even though the job's environment sets
// RIVER_GC_BIN to a planted program, and a multi-line retention-days
// ("90" and "tmp=7") reaches river-gc as two flags.
func TestActionAtACommit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ ref, notice string }{
		{"0123456789abcdef0123456789abcdef01234567", "river-gc from the cache"},
		{"main", "river-gc built from source"},
	} {
		ref := tc.ref
		t.Run(ref, func(t *testing.T) {
			var cache string
			if ref == "main" {
				longtest.Require(t, "the action at a branch (a build from source in the release's configuration)")
				if _, err := exec.LookPath("go"); err != nil {
					t.Skip("go command not found: the action builds river-gc with it")
				}
				// install.sh compiles river-gc as the release does
				// (-trimpath, no cgo). The release build of
				// internal/testbin first, under its lock, leaves those
				// packages in Go's build cache: the action's build is
				// then a link, and no other test package compiles them
				// meanwhile.
				releaseBinary(t)
			} else {
				cache = prebuilt(t, ref)
			}
			repo := t.TempDir()
			day := func(d int) time.Time { return time.Date(2025, 11, 29-d, 0, 0, 0, 0, time.UTC) }
			for name, age := range map[string]int{".river/tmp/week.tmp": 8, ".river/tmp/day.tmp": 1, ".river/memory/m.json": 30} {
				p := filepath.Join(repo, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
				os.Chtimes(p, day(age), day(age))
			}
			planted := filepath.Join(t.TempDir(), "planted")
			marker := planted + ".ran"
			if err := os.WriteFile(planted, []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			e := &emulation{action: readAction(t), ref: ref, outputs: map[string]map[string]string{}, cache: cache,
				with: map[string]string{"force": "true", "now": "2025-11-29T00:00:00Z", "retention-days": "90\ntmp=7\n",
					"base-url": "http://127.0.0.1:9/no-release-here"}}
			out, r, code := e.run(t, repo, "RIVER_GC_BIN="+planted, "RIVER_GC_ACTION_BIN="+planted)
			if code != 0 {
				t.Fatalf("the action's steps: exit %d\n%s", code, out)
			}
			if !regexp.MustCompile(`(?m)^::notice title=` + tc.notice + `::no release at '` + ref + `'.*runs as river-gc devel ` +
				regexp.QuoteMeta(ref[:min(12, len(ref))]) + `$`).MatchString(out) {
				t.Errorf("no notice %q at %s:\n%s", tc.notice, ref, out)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Error("the job's RIVER_GC_BIN ran")
			}
			if got := readFile(t, r.path); got != filepath.Join(r.temp, "river-gc-build")+"\n" {
				t.Errorf("GITHUB_PATH = %q", got)
			}
			_, errWeek := os.Lstat(filepath.Join(repo, ".river/tmp/week.tmp"))
			_, errDay := os.Lstat(filepath.Join(repo, ".river/tmp/day.tmp"))
			_, errMem := os.Lstat(filepath.Join(repo, ".river/memory/m.json"))
			if !os.IsNotExist(errWeek) || errDay != nil || errMem != nil {
				t.Errorf("tmp=7 and 90 not applied: week.tmp %v, day.tmp %v, m.json %v\n%s", errWeek, errDay, errMem, out)
			}
			result := e.outputs["run"]["result-file"]
			if res := readFile(t, result); !strings.Contains(res, `"tmp"`) || e.outputs["run"]["exit-code"] != "0" {
				t.Errorf("outputs %v, result:\n%s", e.outputs["run"], res)
			}
			if !strings.Contains(readFile(t, r.summary), "week.tmp") {
				t.Errorf("the step summary lacks the removal")
			}
		})
	}
}

// TestActionAtACommitWithoutGo: at a commit, on a runner without Go on
// PATH, the install step fails, installs nothing and names the fix
// (actions/setup-go).
func TestActionAtACommitWithoutGo(t *testing.T) {
	t.Parallel()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not found: put bash on PATH to run it")
	}
	bin := t.TempDir() // PATH: bash and the few tools install.sh uses, no go
	for _, tool := range []string{"bash", "dirname", "uname", "mktemp", "rm", "cat", "git"} {
		if p, err := exec.LookPath(tool); err == nil {
			os.Symlink(p, filepath.Join(bin, tool))
		}
	}
	r := newRunner(t)
	cmd := exec.Command(bash, filepath.Join(pinned.Root(t), "integrations", "action", "install.sh"))
	cmd.Env = []string{"PATH=" + bin, "RIVER_GC_VERSION=main", "RUNNER_OS=Linux", "RUNNER_ARCH=X64", "RUNNER_TEMP=" + r.temp,
		"GITHUB_PATH=" + r.path}
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "Go is not on PATH: add actions/setup-go") {
		t.Errorf("install.sh without go: %v\n%s", err, out)
	}
	if _, err := os.Lstat(r.path); !os.IsNotExist(err) {
		t.Errorf("GITHUB_PATH written (%v)", err)
	}
}
