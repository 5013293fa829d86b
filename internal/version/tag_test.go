package version

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/longtest"
	"github.com/plangate-gc/plangate-gc/internal/modfiles"
)

// TestTaggedCheckoutReportsTheTag clones this repository, tags its HEAD,
// builds plangate-gc (and, in the long suites, river-gc) without ldflags
// and checks that --version names the tag (the go command stamps the
// main module's VCS tag into the build information); a change to a
// tracked file makes the build "+dirty". Both commands take their
// version from this package alike; river-gc's build in a clone compiles
// more than twice as many of the module's packages again.
func TestTaggedCheckoutReportsTheTag(t *testing.T) {
	if err := modfiles.Record(); err != nil {
		t.Fatal(err)
	}
	if testing.Short() {
		t.Skip("-short: builds both binaries in a clone")
	}
	for _, tool := range []string{"git", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found", tool)
		}
	}
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not in a git checkout: %v", err)
	}
	dir := filepath.Join(t.TempDir(), "clone")
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if out, err := exec.Command("git", "clone", "--quiet", "--no-local", strings.TrimSpace(string(top)), dir).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	const tag = "v0.0.0-test.1"
	git("tag", tag)
	names, flags, env := []string{"plangate-gc"}, []string{}, []string{"GOFLAGS=-buildvcs=true", "GOWORK=off"}
	if longtest.Enabled() {
		// -trimpath and no cgo, as the release builds: the compiled
		// packages do not depend on the clone's path, so they come from
		// Go's build cache (the long suites build the release's
		// configuration), and the VCS stamp this test reads is the same.
		names = append(names, "river-gc")
		flags, env = []string{"-trimpath"}, append(env, "CGO_ENABLED=0")
	}
	version := func(name string) string {
		t.Helper()
		bin := filepath.Join(t.TempDir(), name)
		// Without -trimpath (the quick suite) only the module's own
		// packages are compiled again, for the clone's path: the others
		// come from Go's build cache, as go test compiled them.
		build := exec.Command("go", append(append([]string{"build"}, flags...), "-o", bin, "./cmd/"+name)...)
		build.Dir = dir
		build.Env = append(os.Environ(), env...)
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", name, err, out)
		}
		out, err := exec.Command(bin, "--version").CombinedOutput()
		if err != nil {
			t.Fatalf("%s --version: %v\n%s", name, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	for _, name := range names {
		if got, want := version(name), name+" "+tag; got != want {
			t.Errorf("%s --version = %q, want %q", name, got, want)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := version("plangate-gc"); !strings.HasPrefix(got, "plangate-gc v0.0.0-test.1") || !strings.HasSuffix(got, "+dirty") {
		t.Errorf("dirty checkout: --version = %q, want the tag's pseudo-version ending in +dirty", got)
	}
}
