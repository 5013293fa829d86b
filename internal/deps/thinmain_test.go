package deps

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxMainLines is the most non-test code cmd/river-gc may hold, doc.go
// (the CLI reference) included (SPEC I4: a thin main).
const maxMainLines = 800

// TestRiverGCMainIsThin: cmd/river-gc's non-test files hold at most
// maxMainLines lines; what they do beyond parsing, running and mapping
// errors to exit codes lives in internal/rivergc/config and command.
func TestRiverGCMainIsThin(t *testing.T) {
	files, err := filepath.Glob("../../cmd/river-gc/*.go")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n += bytes.Count(b, []byte("\n"))
	}
	if n == 0 || n > maxMainLines {
		t.Errorf("cmd/river-gc holds %d lines of non-test code, want 1 to %d", n, maxMainLines)
	}
}

// TestOneRootKindBranch (SPEC I1): outside internal/backend, production
// code asks whether --root names a bucket in one place, where the root is
// opened (internal/rivergc/config).
func TestOneRootKindBranch(t *testing.T) {
	var at []string
	err := filepath.WalkDir("../..", func(p string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") && p != "../.."):
			return filepath.SkipDir
		case d.IsDir() && p == filepath.Join("../..", "internal", "backend"):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go"):
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for range bytes.Count(b, []byte(".IsRoot(")) {
			at = append(at, filepath.ToSlash(strings.TrimPrefix(p, "../../")))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(at) != 1 || at[0] != "internal/rivergc/config/root.go" {
		t.Errorf("root-kind branches (.IsRoot calls) outside internal/backend: %q, want one in internal/rivergc/config/root.go", at)
	}
}
