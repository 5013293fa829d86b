// Package pinned runs, for tests, the tools pinned with Go's tool
// directive in internal/tools/go.mod (actionlint, staticcheck,
// goreleaser): `go tool -modfile=internal/tools/go.mod NAME`, from the
// repository root, so every test and CI use the one pinned version.
package pinned

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// ModFile is the tools' module file, relative to the repository root.
const ModFile = "internal/tools/go.mod"

// Root returns the repository root: the nearest directory upward from
// the working directory that holds internal/tools/go.mod.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, ModFile)); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("no %s above the working directory", ModFile)
		}
		dir = parent
	}
}

// Command returns the command running the pinned tool name with args in
// dir (the repository root when dir is empty). The tool is built (or
// found in the build cache) by `go tool -n`, so dir need not be inside
// the module. It skips the test in -short mode (the first run builds the
// tool) and without the go command.
func Command(t testing.TB, dir, name string, args ...string) *exec.Cmd {
	t.Helper()
	if testing.Short() {
		t.Skipf("-short: the pinned %s is built with go tool", name)
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
	root := Root(t)
	locate := exec.Command("go", "tool", "-modfile="+filepath.Join(root, ModFile), "-n", name)
	locate.Dir = root
	out, err := locate.Output()
	if err != nil {
		var stderr []byte
		if exit, ok := err.(*exec.ExitError); ok {
			stderr = exit.Stderr
		}
		t.Fatalf("go tool -n %s: %v\n%s", name, err, stderr)
	}
	cmd := exec.Command(strings.TrimSpace(string(out)), args...)
	cmd.Dir = root
	if dir != "" {
		cmd.Dir = dir
	}
	return cmd
}
