// Package pinned runs, for tests, the tools pinned with Go's tool
// directive in internal/tools/go.mod (actionlint, staticcheck,
// goreleaser), built from that module file, so every test and CI use
// the one pinned version.
package pinned

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/testbin"
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
// dir (the repository root when dir is empty). The tool is built once for
// every test process and later runs (internal/testbin), so the test
// packages that run it at the same time do not each compile it. It skips
// the test in -short mode (the first run builds the tool) and without
// the go command.
func Command(t testing.TB, dir, name string, args ...string) *exec.Cmd {
	t.Helper()
	if testing.Short() {
		t.Skipf("-short: the pinned %s is built with go build", name)
	}
	root := Root(t)
	pkg, ok := tools[name]
	if !ok {
		t.Fatalf("%s is not a tool of %s", name, ModFile)
	}
	cmd := exec.Command(testbin.Build(t, testbin.Spec{Package: pkg, ModFile: ModFile}), args...)
	cmd.Dir = root
	if dir != "" {
		cmd.Dir = dir
	}
	return cmd
}

// tools are the packages of ModFile's tool directive, by the name `go
// tool` runs them as.
var tools = map[string]string{
	"actionlint":  "github.com/rhysd/actionlint/cmd/actionlint",
	"goreleaser":  "github.com/goreleaser/goreleaser/v2",
	"staticcheck": "honnef.co/go/tools/cmd/staticcheck",
}
