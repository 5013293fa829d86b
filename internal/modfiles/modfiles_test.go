package modfiles

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAnEditReruns runs go test twice in a scratch module whose test
// calls Record and reads nothing else: the second run is answered from
// the cache, and after an edit to a file no test opens directly (as a
// command's source is to a test that builds it) the third is run again.
func TestAnEditReruns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test in a scratch module; drop -short to run it")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	src, err := os.ReadFile("modfiles.go")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		// go test caches no result that read a file changed in the
		// last two seconds.
		old := time.Now().Add(-time.Minute)
		if err := os.Chtimes(path, old, old); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/m\n\ngo 1.22\n")
	write("modfiles/modfiles.go", string(src))
	write("modfiles/x_test.go", "package modfiles\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {\n\tif err := Record(); err != nil {\n\t\tt.Fatal(err)\n\t}\n}\n")
	write("cmd/tool/main.go", "package main\n\nfunc main() { println(1) }\n")
	run := func() string {
		t.Helper()
		cmd := exec.Command(gobin, "test", "./modfiles")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go test: %v\n%s", err, out)
		}
		return string(out)
	}
	run()
	if out := run(); !strings.Contains(out, "(cached)") {
		t.Fatalf("an unchanged module was run again:\n%s", out)
	}
	write("cmd/tool/main.go", "package main\n\nfunc main() { println(2) }\n")
	if out := run(); strings.Contains(out, "(cached)") {
		t.Fatalf("an edit to a command's source was answered from the cache:\n%s", out)
	}
}
