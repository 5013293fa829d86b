package scan

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/testtree"

	"github.com/plangate-gc/plangate-gc/internal/asnobody"
	"github.com/plangate-gc/plangate-gc/skill"
)

// TestMain lets the permission test run one Scan of the memory scope as
// an unprivileged user (internal/asnobody).
func TestMain(m *testing.M) {
	asnobody.Child(func(arg json.RawMessage) any {
		var root string
		if err := json.Unmarshal(arg, &root); err != nil {
			return err.Error()
		}
		return Scan(root, skill.ScopeMemory, Options{Metadata: true})
	})
	os.Exit(m.Run())
}

// runAsNobody scans root as uid 65534 (see internal/asnobody).
func runAsNobody(t *testing.T, base, root string) Result {
	t.Helper()
	var res Result
	asnobody.Run(t, base, root, &res)
	return res
}

// epoch is an arbitrary fixed mtime, far from any metadata timestamp used.
var epoch = time.Unix(1_600_000_000, 123_456_789)

// write creates root/rel with content and mtime, creating parents.
func write(t testing.TB, root, rel, content string, mtime time.Time) {
	t.Helper()
	testtree.Write(t, root, rel, content, mtime)
}

func mkdir(t testing.TB, root, rel string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(root, rel), 0o755); err != nil {
		t.Fatal(err)
	}
}

func symlink(t testing.TB, target, root, rel string) {
	t.Helper()
	mkdir(t, root, filepath.Dir(rel))
	if err := os.Symlink(target, filepath.Join(root, rel)); err != nil {
		t.Fatal(err)
	}
}

func paths(files []File) []string {
	out := []string{}
	for _, f := range files {
		out = append(out, f.Path)
	}
	return out
}

func find(files []File, p string) (File, bool) {
	for _, f := range files {
		if f.Path == p {
			return f, true
		}
	}
	return File{}, false
}

func hasNote(notes []Note, path, substr string) bool {
	for _, n := range notes {
		if n.Path == path && strings.Contains(n.Message, substr) {
			return true
		}
	}
	return false
}

// scanWithin runs Scan and fails the test if it does not return in time;
// a scan that opened a FIFO for reading would block forever.
func scanWithin(t *testing.T, d time.Duration, root string, scope skill.Scope, opts Options) Result {
	t.Helper()
	done := make(chan Result, 1)
	go func() { done <- Scan(root, scope, opts) }()
	select {
	case r := <-done:
		return r
	case <-time.After(d):
		t.Fatalf("Scan(%s) did not return within %v (blocked on a FIFO?)", scope, d)
		return Result{}
	}
}
