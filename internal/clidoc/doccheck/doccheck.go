// Package doccheck is for tests: it compares the flags a document names
// with the flags a parser knows, and keeps generated man pages in step.
package doccheck

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/clidoc"
)

// flagRE matches a long flag as documents write it: --name.
var flagRE = regexp.MustCompile(`(?:^|[^\w-])(--[a-z][a-z0-9-]*)`)

// Mentioned returns the long flags that text names, sorted and unique.
func Mentioned(text string) []string {
	var out []string
	for _, m := range flagRE.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Listed returns the flags that start the lines of a flag list: a line
// whose first non-blank text, after a Go comment's //, is --name (or
// -x, --name).
func Listed(text string) []string {
	line := regexp.MustCompile(`(?m)^(?://)?[\t ]*(?:-[a-zA-Z], )?(--[a-z][a-z0-9-]*)`)
	var out []string
	for _, m := range line.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Section returns the part of text from the line holding start up to
// the next line holding end (or the end of text).
func Section(t *testing.T, text, start, end string) string {
	t.Helper()
	i := strings.Index(text, start)
	if i < 0 {
		t.Fatalf("no %q in the document", start)
	}
	text = text[i+len(start):]
	if j := strings.Index(text, end); j >= 0 {
		text = text[:j]
	}
	return text
}

// Same fails the test when the parser's flags and a document's differ,
// naming the ones missing on either side.
func Same(t *testing.T, doc string, documented, parser []string) {
	t.Helper()
	for _, f := range parser {
		if !slices.Contains(documented, f) {
			t.Errorf("%s: the parser has %s, the document does not list it", doc, f)
		}
	}
	Subset(t, doc, documented, parser)
}

// Subset fails the test for every flag a document names that the
// parser does not know.
func Subset(t *testing.T, doc string, documented, parser []string) {
	t.Helper()
	for _, f := range documented {
		if !slices.Contains(parser, f) {
			t.Errorf("%s names %s, which the parser does not know", doc, f)
		}
	}
}

// Golden compares got with the file at path; with update (the test
// package's -update flag) it rewrites the file instead.
func Golden(t *testing.T, path, got string, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if string(want) != got {
		t.Errorf("%s is not what the parser generates; run go test -update and review the diff", path)
	}
}

// ManFlags returns the flags a generated man page lists.
func ManFlags(page string) []string {
	re := regexp.MustCompile(`(?m)^\.TP\n(?:\\fB\\-[a-zA-Z]\\fR, )?\\fB\\-\\-([a-z0-9\\-]+)\\fR`)
	var out []string
	for _, m := range re.FindAllStringSubmatch(page, -1) {
		out = append(out, "--"+strings.ReplaceAll(m[1], `\-`, "-"))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Parser returns the parser's long flags, with --help.
func Parser(c clidoc.Command) []string { return c.FlagNames() }
