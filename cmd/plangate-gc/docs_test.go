package main

import (
	"os"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/clidoc"
	"github.com/plangate-gc/plangate-gc/internal/clidoc/doccheck"
)

const manPath = "../../docs/man/plangate-gc.1"

// TestManPage regenerates docs/man/plangate-gc.1 from kong's model and
// compares it with the checked-in page (-update rewrites it).
func TestManPage(t *testing.T) {
	m, err := model()
	if err != nil {
		t.Fatal(err)
	}
	doccheck.Golden(t, manPath, clidoc.Man(m, clidoc.Page{Source: "plangate-gc", Manual: "User Commands",
		SeeAlso: []string{"river-gc(1)"}}), *update)
}

// TestDocumentedFlagsMatchTheParser checks doc.go's flag lists and the
// man page against kong's model (every command's flags), and that the
// README names no flag the parser does not know. The README is checked
// for both binaries by cmd/river-gc's test, which runs on Linux only.
func TestDocumentedFlagsMatchTheParser(t *testing.T) {
	m, err := model()
	if err != nil {
		t.Fatal(err)
	}
	parser := doccheck.Parser(m)
	doccheck.Same(t, "cmd/plangate-gc/doc.go", doccheck.Listed(read(t, "doc.go")), parser)
	doccheck.Same(t, manPath, doccheck.ManFlags(read(t, manPath)), parser)
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
