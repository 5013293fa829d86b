package action

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/longtest"
	"github.com/plangate-gc/plangate-gc/internal/pinned"
	"github.com/plangate-gc/plangate-gc/internal/testbin"
)

// goLogger puts a go on PATH that appends its arguments to the returned
// log, one call a line, and runs the real go: a test reads whether the
// action built anything.
func goLogger(t *testing.T) (pathEnv, log string) {
	t.Helper()
	real, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not found: the action builds river-gc with it")
	}
	dir := t.TempDir()
	log = filepath.Join(dir, "calls")
	script := "#!/bin/sh\necho \"$*\" >> '" + log + "'\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return "PATH=" + dir + string(os.PathListSeparator) + os.Getenv("PATH"), log
}

// goVersion is the version of the Go that builds the repository.
func goVersion(t *testing.T) string {
	t.Helper()
	cmd := exec.Command("go", "env", "GOVERSION")
	cmd.Dir = pinned.Root(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// oldTree is a repository whose .river/tmp holds one file a week old.
func oldTree(t *testing.T) string {
	t.Helper()
	repo := t.TempDir()
	p := filepath.Join(repo, ".river/tmp/week.tmp")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2025, 11, 21, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	return repo
}

// TestActionCachesItsBuild emulates two jobs using the action at the same
// commit, with actions/cache emulated by one directory: the first builds
// river-gc, says so and saves the build under a key naming the runner's
// OS and arch, Go's version and the ref; the second restores that key,
// runs the restored binary without calling go build, says it came from
// the cache, and saves nothing.
func TestActionCachesItsBuild(t *testing.T) {
	t.Parallel()
	longtest.Require(t, "the action's build from source (the release's configuration)")
	pathEnv, calls := goLogger(t)
	releaseBinary(t) // compiles the packages install.sh's build links, under testbin's lock
	ref := "89abcdef0123456789abcdef0123456789abcdef"
	cache := t.TempDir()
	want := regexp.MustCompile(`^river-gc-build-linux-amd64-` + regexp.QuoteMeta(goVersion(t)) + `-` + ref[:12] + `-[0-9a-f]{16}$`)
	job := func(name string) (string, *emulation, runner) {
		t.Helper()
		os.Remove(calls)
		repo := oldTree(t)
		e := &emulation{action: readAction(t), ref: ref, outputs: map[string]map[string]string{}, cache: cache,
			with: map[string]string{"force": "true", "now": "2025-11-29T00:00:00Z", "retention-days": "tmp=7", "scopes": "tmp"}}
		out, r, code := e.run(t, repo, pathEnv)
		if code != 0 {
			t.Fatalf("%s job: exit %d\n%s", name, code, out)
		}
		if _, err := os.Lstat(filepath.Join(repo, ".river/tmp/week.tmp")); !os.IsNotExist(err) {
			t.Errorf("%s job: week.tmp not removed (%v)\n%s", name, err, out)
		}
		if got := readFile(t, r.path); got != filepath.Join(r.temp, "river-gc-build")+"\n" {
			t.Errorf("%s job: GITHUB_PATH = %q", name, got)
		}
		return out, e, r
	}

	out, first, _ := job("first")
	key := first.outputs["key"]["key"]
	if !want.MatchString(key) {
		t.Fatalf("cache key %q, want %s", key, want)
	}
	if !strings.Contains(readFile(t, calls), "build ") {
		t.Errorf("the first job did not run go build:\n%s", readFile(t, calls))
	}
	if !strings.Contains(out, "::notice title=river-gc built from source::") || !strings.Contains(out, "saved to the Actions cache as "+key) {
		t.Errorf("the first job's notice does not say it built and cached river-gc:\n%s", out)
	}
	if len(first.saved) != 1 || first.saved[0] != key {
		t.Fatalf("the first job saved %v, want [%s]", first.saved, key)
	}
	if _, err := os.Stat(filepath.Join(cache, key, "river-gc")); err != nil {
		t.Fatalf("no river-gc in the cache: %v", err)
	}

	out, second, _ := job("second")
	if got := second.outputs["key"]["key"]; got != key {
		t.Errorf("the second job's key %q, the first's %q", got, key)
	}
	if log, _ := os.ReadFile(calls); strings.Contains(string(log), "build") {
		t.Errorf("the second job ran go build:\n%s", log)
	}
	if !regexp.MustCompile(`(?m)^::notice title=river-gc from the cache::.*\(key ` + regexp.QuoteMeta(key) + `\).*runs as river-gc devel ` + ref[:12] + `$`).MatchString(out) {
		t.Errorf("the second job's notice does not say river-gc came from the cache:\n%s", out)
	}
	if len(second.saved) != 0 {
		t.Errorf("the second job saved %v again", second.saved)
	}
}

// TestActionCacheIgnoresAStaleBuild: a cache entry under the key whose
// binary is not this ref's build (a different --version) is not run as
// if it were: the install step builds again.
func TestActionCacheIgnoresAStaleBuild(t *testing.T) {
	t.Parallel()
	longtest.Require(t, "the action's build from source (the release's configuration)")
	pathEnv, calls := goLogger(t)
	releaseBinary(t) // compiles the packages install.sh's build links, under testbin's lock
	ref := "0123456789abcdef0123456789abcdef01234567"
	cache := t.TempDir()
	e := &emulation{action: readAction(t), ref: ref, outputs: map[string]map[string]string{}, cache: cache,
		with: map[string]string{"scopes": "tmp"}}
	key := cacheKey(t, filepath.Join(pinned.Root(t), "integrations/action/install.sh"), "RIVER_GC_VERSION="+ref, pathEnv)
	planted := filepath.Join(cache, key, "river-gc")
	if err := os.MkdirAll(filepath.Dir(planted), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(planted, []byte("#!/bin/sh\necho river-gc devel someotherref\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.Remove(calls)
	out, _, code := e.run(t, oldTree(t), pathEnv)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if !strings.Contains(readFile(t, calls), "build ") || !strings.Contains(out, "built from source") {
		t.Errorf("a cached binary of another build was used:\n%s", out)
	}
}

// prebuilt returns an emulated Actions cache that holds, under the key
// the action computes at ref, river-gc as install.sh builds it there
// (--version "river-gc devel REF"), made once for every test by
// internal/testbin: an emulated job at ref then restores it instead of
// compiling river-gc in the release's configuration, which only the
// long tests of the build itself do (TestActionCachesItsBuild,
// TestActionAtACommit).
func prebuilt(t *testing.T, ref string) string {
	t.Helper()
	cache := t.TempDir()
	key := cacheKey(t, filepath.Join(pinned.Root(t), "integrations/action/install.sh"), "RIVER_GC_VERSION="+ref)
	if key == "" {
		t.Fatalf("no cache key at %s", ref)
	}
	bin := testbin.Build(t, testbin.Spec{Package: testbin.RiverGC.Package,
		Flags: []string{"-ldflags=-X 'github.com/plangate-gc/plangate-gc/internal/version.Version=devel " + ref[:12] + "'"}})
	if err := testbin.Copy(bin, filepath.Join(cache, key, "river-gc")); err != nil {
		t.Fatal(err)
	}
	return cache
}

// cacheKey runs `script key` (action.yml's key step) on a Linux X64 runner
// with env and returns the key it outputs ("" for none).
func cacheKey(t *testing.T, script string, env ...string) string {
	t.Helper()
	r := newRunner(t)
	cmd := exec.Command("bash", script, "key")
	cmd.Env = append(os.Environ(), "RUNNER_OS=Linux", "RUNNER_ARCH=X64", "RUNNER_TEMP="+r.temp, "GITHUB_OUTPUT="+r.output)
	cmd.Env = append(cmd.Env, env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s key %v: %v\n%s", script, env, err, out)
	}
	b, _ := os.ReadFile(r.output)
	k, _, _ := strings.Cut(string(b), "\n")
	return strings.TrimPrefix(k, "key=")
}

// TestActionCacheKey runs the key step alone on a copy of the action's
// build inputs: the key changes with the ref, the runner's arch, Go's
// version and any source file, not with a test file; at a release tag
// there is no key (nothing is built, so nothing is cached).
func TestActionCacheKey(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
	root := pinned.Root(t)
	tree := t.TempDir()
	for _, f := range []string{"go.mod", "integrations/action/install.sh", "cmd/river-gc/main.go", "cmd/river-gc/main_test.go"} {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(tree, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tree, f), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	fakeGo := t.TempDir()
	if err := os.WriteFile(filepath.Join(fakeGo, "go"), []byte("#!/bin/sh\necho go9.99.9\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	key := func(env ...string) string {
		t.Helper()
		return cacheKey(t, filepath.Join(tree, "integrations/action/install.sh"), env...)
	}
	sha := "RIVER_GC_VERSION=fedcba9876543210fedcba9876543210fedcba98"
	base := key(sha)
	if !strings.HasPrefix(base, "river-gc-build-linux-amd64-go") || !strings.Contains(base, "-fedcba987654-") {
		t.Fatalf("key %q", base)
	}
	if again := key(sha); again != base {
		t.Errorf("the same inputs gave %q, then %q", base, again)
	}
	for name, env := range map[string][]string{
		"another ref": {"RIVER_GC_VERSION=main"},
		"arm64":       {sha, "RUNNER_ARCH=ARM64"},
		"another Go":  {sha, "PATH=" + fakeGo + string(os.PathListSeparator) + os.Getenv("PATH")},
	} {
		if k := key(env...); k == base || k == "" {
			t.Errorf("%s: key %q, the same as %q", name, k, base)
		}
	}
	if k := key("RIVER_GC_VERSION=feature/x"); !strings.Contains(k, "-feature-x-") {
		t.Errorf("a branch with a slash: key %q", k)
	}
	if k := key("RIVER_GC_VERSION=v1.2.3"); k != "" {
		t.Errorf("a release tag got a cache key %q", k)
	}
	appendTo := func(f string) {
		p := filepath.Join(tree, f)
		b, _ := os.ReadFile(p)
		if err := os.WriteFile(p, append(b, "\n// changed\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	appendTo("cmd/river-gc/main_test.go")
	if k := key(sha); k != base {
		t.Errorf("a test file changed the key: %q, was %q", k, base)
	}
	appendTo("cmd/river-gc/main.go")
	if k := key(sha); k == base {
		t.Errorf("a changed source file kept the key %q", k)
	}
}
