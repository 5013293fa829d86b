package testbin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/longtest"
)

// scratch makes a module with one command, cmd/hello, printing msg, and
// makes it the working directory, with a private cache.
func scratch(t *testing.T, msg string) (mod string) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
	mod = t.TempDir()
	write(t, filepath.Join(mod, "go.mod"), "module example.com/hello\n\ngo 1.22\n")
	setMessage(t, mod, msg)
	t.Chdir(mod)
	t.Setenv(EnvCache, filepath.Join(t.TempDir(), "cache"))
	t.Cleanup(release)
	return mod
}

func setMessage(t *testing.T, mod, msg string) {
	t.Helper()
	write(t, filepath.Join(mod, "cmd", "hello", "main.go"),
		"package main\n\nvar v = \"\"\n\nfunc main() { println(\""+msg+"\" + v) }\n")
}

func write(t *testing.T, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// release drops the locks this process holds, as its exit would.
func release() {
	for _, f := range held {
		f.Close()
	}
	held = nil
}

var hello = Spec{Package: "./cmd/hello"}

// run builds s (without the in-process memo) and returns the binary, its
// inode and what it prints.
func run(t *testing.T, s Spec) (bin string, ino uint64, out string) {
	t.Helper()
	bin, err := build(s)
	if err != nil {
		t.Fatal(err)
	}
	var st syscall.Stat_t
	if err := syscall.Stat(bin, &st); err != nil {
		t.Fatal(err)
	}
	b, err := exec.Command(bin).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, b)
	}
	return bin, st.Ino, strings.TrimSpace(string(b))
}

// TestBuildIsKeyedOnWhatTheBinaryIsMadeOf: the same sources and flags
// reuse the same build (the file is not rebuilt); an edit to a source of
// the command, or other flags, builds anew; an edit to a file the
// command is not built from (a test, a document) does not.
func TestBuildIsKeyedOnWhatTheBinaryIsMadeOf(t *testing.T) {
	mod := scratch(t, "one")
	bin1, ino1, out := run(t, hello)
	if out != "one" {
		t.Fatalf("built binary printed %q, want one", out)
	}
	if rel, err := filepath.Rel(os.Getenv(EnvCache), bin1); err != nil || strings.HasPrefix(rel, "..") {
		t.Errorf("binary %s is not in the cache %s", bin1, os.Getenv(EnvCache))
	}
	if bin, ino, _ := run(t, hello); bin != bin1 || ino != ino1 {
		t.Errorf("second build of the same sources: %s (inode %d), want the first, %s (inode %d)", bin, ino, bin1, ino1)
	}
	write(t, filepath.Join(mod, "cmd", "hello", "main_test.go"), "package main\n")
	write(t, filepath.Join(mod, "README.md"), "hello\n")
	if bin, ino, _ := run(t, hello); bin != bin1 || ino != ino1 {
		t.Errorf("after editing files the command is not built from: %s, want the first build %s", bin, bin1)
	}
	setMessage(t, mod, "two")
	bin2, _, out := run(t, hello)
	if bin2 == bin1 || out != "two" {
		t.Errorf("after editing main.go: %s printing %q, want a new build printing two", bin2, out)
	}
	stamped := Spec{Package: hello.Package, Flags: []string{"-ldflags=-X main.v=!"}}
	if bin3, _, out := run(t, stamped); bin3 == bin2 || out != "two!" {
		t.Errorf("with -ldflags: %s printing %q, want a new build printing two!", bin3, out)
	}
	if _, _, out := run(t, hello); out != "two" {
		t.Errorf("the plain build after the stamped one prints %q", out)
	}
}

// TestPruneSparesHeldEntries: of a variant, only the most recently used
// entries stay, except one a process still holds.
func TestPruneSparesHeldEntries(t *testing.T) {
	mod := scratch(t, "v0")
	first, _, _ := run(t, hello) // held by this process until release
	kept := held
	held = nil
	var bins []string
	for _, msg := range []string{"v1", "v2", "v3", "v4", "v5"} {
		setMessage(t, mod, msg)
		bin, _, _ := run(t, hello)
		release()
		bins = append(bins, bin)
	}
	held = kept
	if _, err := os.Stat(first); err != nil {
		t.Errorf("the held entry was pruned: %v", err)
	}
	if _, err := os.Stat(bins[0]); err == nil {
		t.Errorf("%s outlived %d newer builds unheld", bins[0], keep)
	}
	for _, bin := range bins[1:] {
		if _, err := os.Stat(bin); err != nil {
			t.Errorf("one of the %d newest builds was pruned: %v", keep, err)
		}
	}
	entries, err := os.ReadDir(os.Getenv(EnvCache))
	if err != nil {
		t.Fatal(err)
	}
	dirs := 0
	for _, e := range entries {
		if e.IsDir() {
			dirs++
		}
	}
	if dirs != keep+1 {
		t.Errorf("%d entries in the cache, want %d newest and the held one", dirs, keep)
	}
}

// TestConcurrentProcessesBuildOnce: test processes that ask for the same
// build at the same moment all get one file, built once (a second build
// would have replaced it: another inode).
func TestConcurrentProcessesBuildOnce(t *testing.T) {
	if os.Getenv("TESTBIN_CHILD") == "1" {
		bin, ino, _ := run(t, hello)
		fmt.Printf("built %s %d\n", bin, ino)
		return
	}
	scratch(t, "once")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var cmds []*exec.Cmd
	var outs []*strings.Builder
	for range 3 {
		cmd := exec.Command(self, "-test.run=^TestConcurrentProcessesBuildOnce$", "-test.v")
		cmd.Env = append(os.Environ(), "TESTBIN_CHILD=1")
		out := &strings.Builder{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, out)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("child %d: %v\n%s", i, err, outs[i])
		}
	}
	bin, ino, _ := run(t, hello)
	want := fmt.Sprintf("built %s %d\n", bin, ino)
	for i, out := range outs {
		if !strings.Contains(out.String(), want) {
			t.Errorf("child %d did not get the one build %q:\n%s", i, want, out)
		}
	}
}

// TestNoRaceExitSleep: the sleep is turned off unless GORACE already
// says how long to sleep; other race options stay.
func TestNoRaceExitSleep(t *testing.T) {
	for _, tc := range []struct{ before, after string }{
		{"", "atexit_sleep_ms=0"},
		{"halt_on_error=1", "halt_on_error=1 atexit_sleep_ms=0"},
		{"atexit_sleep_ms=50", "atexit_sleep_ms=50"},
	} {
		t.Setenv("GORACE", tc.before)
		NoRaceExitSleep()
		if got := os.Getenv("GORACE"); got != tc.after {
			t.Errorf("GORACE=%q: after NoRaceExitSleep %q, want %q", tc.before, got, tc.after)
		}
	}
}

// TestReleaseIsALinkOutsideTheLongSuites: the quick suite's release
// binary for the host differs from the plain build by linker flags only
// (go test compiled its packages already), while the long suites, and
// another architecture, get the release's configuration.
func TestReleaseIsALinkOutsideTheLongSuites(t *testing.T) {
	const ldflags = "-s -w -X main.v=1"
	other := map[string]string{"amd64": "arm64"}[runtime.GOARCH]
	if other == "" {
		other = "amd64"
	}
	release := Spec{Package: RiverGC.Package, Flags: []string{"-trimpath", "-ldflags=" + ldflags}}
	for _, tc := range []struct {
		long   string
		goarch string
		want   Spec
	}{
		{"", runtime.GOARCH, Spec{Package: RiverGC.Package, Flags: []string{"-ldflags=" + ldflags}}},
		{"", other, withEnv(release, "GOOS=linux", "GOARCH="+other, "CGO_ENABLED=0")},
		{"1", runtime.GOARCH, withEnv(release, "GOOS=linux", "GOARCH="+runtime.GOARCH, "CGO_ENABLED=0")},
	} {
		t.Setenv(longtest.Env, tc.long)
		if got := Release(tc.goarch, ldflags); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s=%q, %s: %+v, want %+v", longtest.Env, tc.long, tc.goarch, got, tc.want)
		}
	}
}

func withEnv(s Spec, env ...string) Spec {
	s.Env = env
	return s
}
