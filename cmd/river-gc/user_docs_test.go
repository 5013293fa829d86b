//go:build linux

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// jargon is the project-internal vocabulary a user never needs: seed
// numbers and SPEC section names (SPEC B7: docs for users, not for us).
var jargon = regexp.MustCompile(`(?i)\bseed \d{3}\b|\bseed 0\d\d's\b|\bSPEC (Part )?[A-H]\d*\b`)

// TestUserDocsSpeakWithoutJargon: the README, both commands' package
// comments (go doc), their man pages and river-gc --help hold no seed
// numbers or SPEC section names, and the README stays a short front door
// (at most 10 KB) whose links into docs/ point at files that exist (the
// guides other parts of the project write are allowed to be absent).
func TestUserDocsSpeakWithoutJargon(t *testing.T) {
	t.Parallel()
	files := []string{"../../README.md", "doc.go", "../plangate-gc/doc.go", "../../docs/man/river-gc.1",
		"../../docs/man/plangate-gc.1", "../../docs/scopes.md", "../../docs/glossary.md"}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if m := jargon.Find(b); m != nil {
			t.Errorf("%s: %q is jargon a user does not know", f, m)
		}
	}
	var out, errOut bytes.Buffer
	if err := run(context.Background(), &out, &errOut, []string{"--help"}); err != nil {
		t.Fatal(err)
	}
	if m := jargon.Find(out.Bytes()); m != nil {
		t.Errorf("river-gc --help: %q is jargon a user does not know", m)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(readme) > 10*1024 {
		t.Errorf("README.md is %d bytes, want at most 10 KB", len(readme))
	}
	others := map[string]bool{"docs/stores.md": true, "docs/s3.md": true, "docs/ci.md": true}
	for _, m := range regexp.MustCompile(`\]\(((?:docs|integrations|fixtures|bench)/[^)#]*)`).FindAllSubmatch(readme, -1) {
		link := string(m[1])
		if _, err := os.Stat(filepath.Join("../..", link)); err != nil && !others[link] {
			t.Errorf("README links to %s, which does not exist", link)
		}
	}
}
