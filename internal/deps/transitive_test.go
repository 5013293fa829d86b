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

// TestUpdateOnlyWhereGoldensAre: a test package defines -update only
// when its tests read it (they rewrite goldens with it), and
// Taskfile.yml's update-golden task runs exactly those packages with
// -update (docs/ci.md): no package accepts a flag it ignores, and no
// golden is left out of the task.
func TestUpdateOnlyWhereGoldensAre(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not available")
	}
	out := golist(t, "-f", `{{.ImportPath}} {{.Dir}} {{join .TestGoFiles " "}} {{join .XTestGoFiles " "}}`, mod+"...")
	var withUpdate []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 {
			continue
		}
		var all strings.Builder
		for _, name := range f[2:] {
			data, err := os.ReadFile(f[1] + "/" + name)
			if err != nil {
				t.Fatal(err)
			}
			all.Write(data)
		}
		defines, reads := strings.Contains(all.String(), `flag.Bool("update"`), strings.Contains(all.String(), "*update")
		switch {
		case defines && !reads:
			t.Errorf("%s defines -update but no test reads it: remove the flag (a package without goldens need not accept it)", f[0])
		case defines:
			withUpdate = append(withUpdate, "./"+strings.TrimPrefix(f[0], mod))
		}
	}
	slices.Sort(withUpdate)
	task, err := os.ReadFile("../../Taskfile.yml")
	if err != nil {
		t.Fatal(err)
	}
	if got := updateGoldenPackages(string(task)); !slices.Equal(got, withUpdate) {
		t.Errorf("Taskfile.yml's update-golden runs -update on %q; the packages with goldens are %q", got, withUpdate)
	}
}

// updateGoldenPackages returns the sorted packages of the `go test ...
// -update` command of the update-golden task in a Taskfile.
func updateGoldenPackages(taskfile string) []string {
	_, rest, ok := strings.Cut(taskfile, "\n  update-golden:\n")
	if !ok {
		return nil
	}
	var pkgs []string
	for _, line := range strings.Split(rest, "\n") {
		if strings.HasPrefix(line, "  ") && !strings.HasPrefix(line, "    ") {
			break // the next task
		}
		cmd, isCmd := strings.CutPrefix(strings.TrimSpace(line), "- go test ")
		if !isCmd || !strings.Contains(cmd, "-update") {
			continue
		}
		for _, f := range strings.Fields(cmd) {
			if strings.HasPrefix(f, "./") {
				pkgs = append(pkgs, f)
			}
		}
	}
	slices.Sort(pkgs)
	return pkgs
}
