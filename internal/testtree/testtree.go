//go:build linux

// Package testtree builds file trees for the file-system tests of scan,
// sweep and river-gc. It is test support only.
package testtree

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Write creates root/rel with content and the given mtime, creating
// parent directories.
func Write(t testing.TB, root, rel, content string, mtime time.Time) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}
