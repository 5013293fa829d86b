//go:build linux

package main

import (
	"os"
	"slices"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/clidoc"
	"github.com/plangate-gc/plangate-gc/internal/clidoc/doccheck"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/config"
	"github.com/plangate-gc/plangate-gc/skill"
)

const manPath = "../../docs/man/river-gc.1"

// TestManPage regenerates docs/man/river-gc.1 from kong's model and
// compares it with the checked-in page (-update rewrites it).
func TestManPage(t *testing.T) {
	t.Parallel()
	m, err := model()
	if err != nil {
		t.Fatal(err)
	}
	doccheck.Golden(t, manPath, clidoc.Man(m, clidoc.Page{Source: "plangate-gc", Manual: "User Commands",
		SeeAlso: []string{"plangate-gc(1)"}, Sections: manSections,
		Synopsis: [][]string{{"river-gc", "completion", "SHELL"}}}), *update)
}

// manSections say what kong's model of the flags does not hold.
var manSections = []clidoc.Section{{Title: "Shell completion", Text: `river-gc completion bash|zsh|fish prints a completion script generated from the parser's flags:

  source <(river-gc completion bash)
  river-gc completion zsh > "${fpath[1]}/_river-gc"
  river-gc completion fish > ~/.config/fish/completions/river-gc.fish`}}

// TestDocumentedFlagsMatchTheParser checks the flags that doc.go's flag
// list, the man page and the README name against kong's model: doc.go
// and the man page list exactly the parser's flags, the README names
// none the parser does not know.
func TestDocumentedFlagsMatchTheParser(t *testing.T) {
	t.Parallel()
	m, err := model()
	if err != nil {
		t.Fatal(err)
	}
	parser := doccheck.Parser(m)
	doc := read(t, "doc.go")
	flags := doccheck.Listed(doccheck.Section(t, doc, "// Flags:", "\n//\n// Numbers"))
	doccheck.Same(t, "cmd/river-gc/doc.go", flags, parser)
	doccheck.Same(t, manPath, doccheck.ManFlags(read(t, manPath)), parser)
	doccheck.Subset(t, "README.md", doccheck.Mentioned(read(t, "../../README.md")), append(append(parser, plangateGCFlags...), otherTools...))
}

// plangateGCFlags are the README's plangate-gc flags (plangate-gc's own
// test checks them against its parser).
var plangateGCFlags = []string{"--format", "--input", "--lang", "--json", "--merge", "--run", "--update"}

// otherTools are the README's flags of other commands: sha256sum's
// --check --ignore-missing, goreleaser's --clean, and upstream River
// Review's --baseline, --gate-input, --plan, --fail-on-major and --save.
var otherTools = []string{"--check", "--clean", "--ignore-missing", "--baseline", "--gate-input", "--plan", "--fail-on-major", "--save"}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestScopeCompletionIsWhatConfigAccepts: the values completion offers
// for --scope (the complete tag) are exactly the skill's scopes and all,
// and each one is accepted by the flag's own validation.
func TestScopeCompletionIsWhatConfigAccepts(t *testing.T) {
	t.Parallel()
	m, err := model()
	if err != nil {
		t.Fatal(err)
	}
	var offered []string
	for _, f := range m.Flags {
		if f.Name == "scope" {
			offered = f.Values
		}
	}
	var want []string
	for _, s := range skill.Scopes() {
		want = append(want, string(s))
	}
	want = append(want, "all")
	if !slices.Equal(offered, want) {
		t.Errorf("--scope completes %v, want %v", offered, want)
	}
	for _, v := range offered {
		if _, err := config.ResolveScopes([]string{v}); err != nil {
			t.Errorf("--scope %s is offered but refused: %v", v, err)
		}
	}
}
