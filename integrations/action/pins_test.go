package action

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/plangate-gc/plangate-gc/internal/pinned"
)

// shipped are the files a user copies the action's uses: line from.
var shipped = []string{"README.md", "docs/ci.md", "action.yml", "integrations/action/example.yml",
	"integrations/workflow/river-gc-weekly.yml"}

// usesLine is a reference to the action from another repository.
var usesLine = regexp.MustCompile(`plangate-gc/plangate-gc@([^\s` + "`" + `]*(?: [a-z]+)*>?)`)

// TestShippedWorkflowsPinTheREADMEPlaceholder: the README, docs/ci.md,
// action.yml's comment, example.yml and the weekly workflow pin the action
// at one string, the README's placeholder for a full commit sha (no tag
// that does not exist, no branch), every workflow and YAML example among
// them parses, and every step using the action selects River Review's
// store scopes (the default scopes reclaim nothing on its layout) and
// names no release version.
func TestShippedWorkflowsPinTheREADMEPlaceholder(t *testing.T) {
	t.Parallel()
	root := pinned.Root(t)
	steps := 0
	for _, f := range shipped {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		pins := usesLine.FindAllStringSubmatch(string(b), -1)
		if len(pins) == 0 {
			t.Errorf("%s does not show the action's uses: line", f)
		}
		for _, m := range pins {
			if m[1] != placeholder {
				t.Errorf("%s pins the action at %q, want the README's %q", f, m[1], placeholder)
			}
		}
		var docs []string
		switch {
		case strings.HasSuffix(f, ".md"):
			for _, m := range regexp.MustCompile("(?s)```ya?ml\n(.*?)```").FindAllStringSubmatch(string(b), -1) {
				docs = append(docs, m[1])
			}
		case f != "action.yml":
			docs = []string{string(b)}
		}
		for _, d := range docs {
			steps += checkUses(t, f, d)
		}
	}
	if steps < 4 {
		t.Errorf("%d steps use the action in the shipped workflows, want README's, docs/ci.md's, example.yml's and the weekly's", steps)
	}
}

// checkUses parses one workflow (or a list of steps, or a job) and checks
// each step that uses the action; it returns how many it checked.
func checkUses(t *testing.T, file, doc string) int {
	t.Helper()
	var node any
	if err := yaml.Unmarshal([]byte(doc), &node); err != nil {
		t.Errorf("%s: a YAML example does not parse: %v\n%s", file, err, doc)
		return 0
	}
	n := 0
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if uses, _ := v["uses"].(string); strings.HasPrefix(uses, "plangate-gc/plangate-gc@") {
				n++
				with, _ := v["with"].(map[string]any)
				scopes, _ := with["scopes"].(string)
				_, applies := with["apply"] // an apply takes its scopes from the plan, which must not be set beside it
				for _, s := range []string{"runs", "memory-entries", "eval-ledger"} {
					if !applies && !slices.Contains(strings.Fields(scopes), s) {
						t.Errorf("%s: the action's scopes %q lack %s", file, scopes, s)
					}
				}
				if version, _ := with["version"].(string); version != "" {
					t.Errorf("%s: version %q names a release that does not exist", file, version)
				}
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(node)
	return n
}
