package deps

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// pureDepsFile pins, for every pure package, everything it reaches
// transitively outside the module: third-party packages and the standard
// library's public packages (Go's own internal/ and vendor/ packages are
// the runtime's business and vary with the Go version). A new dependency
// of a pure package, however indirect, fails TestPureTransitiveImports
// until this file is rewritten with -update and the diff reviewed.
const pureDepsFile = "testdata/pure-deps.txt"

// transitive returns pkg's sorted transitive imports outside the module,
// without Go's internal and vendored packages.
func transitive(t *testing.T, pkg string) []string {
	t.Helper()
	out := golist(t, "-deps", mod+pkg)
	var deps []string
	for _, d := range strings.Fields(string(out)) {
		if strings.HasPrefix(d, mod) || d == strings.TrimSuffix(mod, "/") || isRuntimeInternal(d) {
			continue
		}
		deps = append(deps, d)
	}
	slices.Sort(deps)
	return deps
}

// isRuntimeInternal reports a standard-library package no program can
// import itself.
func isRuntimeInternal(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	if strings.Contains(first, ".") {
		return false // third party: pinned like any other
	}
	return first == "vendor" || slices.Contains(strings.Split(p, "/"), "internal")
}

func TestPureTransitiveImports(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not available")
	}
	names := make([]string, 0, len(pure))
	for p := range pure {
		names = append(names, p)
	}
	slices.Sort(names)
	var b strings.Builder
	b.WriteString("# What each pure package reaches outside the module (go list -deps), one per line.\n")
	b.WriteString("# Rewritten by `go test ./internal/deps -update`; review the diff.\n")
	for _, p := range names {
		b.WriteString("\n" + p + ":\n")
		for _, d := range transitive(t, p) {
			b.WriteString("\t" + d + "\n")
		}
	}
	got := b.String()
	if *update {
		if err := os.WriteFile(pureDepsFile, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(pureDepsFile)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/deps -update)", err)
	}
	if got != string(want) {
		t.Errorf("the pure packages' transitive imports changed; if intended, run go test ./internal/deps -update and review the diff of %s", pureDepsFile)
		gotL, wantL := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for _, l := range gotL {
			if !slices.Contains(wantL, l) {
				t.Logf("new: %q", l)
			}
		}
	}
}

// TestEveryTestPackageAcceptsUpdate keeps `go test ./... -update` working:
// a test binary without the flag would reject it and fail the run.
func TestEveryTestPackageAcceptsUpdate(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not available")
	}
	out := golist(t, "-f", `{{.Dir}} {{join .TestGoFiles " "}} {{join .XTestGoFiles " "}}`, mod+"...")
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		found := false
		for _, name := range f[1:] {
			data, err := os.ReadFile(f[0] + "/" + name)
			if err == nil && strings.Contains(string(data), `flag.Bool("update"`) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s has tests but defines no -update flag (copy update_test.go from a neighbour)", f[0])
		}
	}
}
