package riverreview

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/plangate-gc/plangate-gc/internal/contracts"
	"github.com/plangate-gc/plangate-gc/render"
)

// frontmatter returns the YAML between the leading "---" lines of SKILL.md,
// and the body after it.
func frontmatter(t *testing.T) (front, body []byte) {
	t.Helper()
	data, err := os.ReadFile("SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	rest, ok := bytes.CutPrefix(data, []byte("---\n"))
	if !ok {
		t.Fatal("SKILL.md does not start with a --- frontmatter line")
	}
	front, body, ok = bytes.Cut(rest, []byte("\n---\n"))
	if !ok {
		t.Fatal("SKILL.md frontmatter is not closed by ---")
	}
	return front, body
}

// TestFrontmatterValidatesAgainstUpstream parses the frontmatter as YAML
// and validates it against River Review's skill.schema.json.
func TestFrontmatterValidatesAgainstUpstream(t *testing.T) {
	t.Parallel()
	front, _ := frontmatter(t)
	var v map[string]any
	if err := yaml.Unmarshal(front, &v); err != nil {
		t.Fatalf("frontmatter is not YAML: %v", err)
	}
	// Round-trip through JSON: the validator wants JSON types.
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	schema := contracts.Schema(t, "skill.schema.json")
	if err := schema.Validate(doc); err != nil {
		t.Fatalf("frontmatter invalid against skill.schema.json: %#v", err)
	}
	if v["id"] != render.ArtifactSkillID {
		t.Errorf("id %v: must be the registry id the artifact plan names (%s)", v["id"], render.ArtifactSkillID)
	}
	if v["id"] == "rr-upstream-plangate-gc-deterministic-001" {
		t.Error("id is upstream's own skill's: one would shadow the other")
	}
	// upstream's skills-audit allows names of at most 50 characters.
	if name, _ := v["name"].(string); len([]rune(name)) > 50 {
		t.Errorf("name %q has %d characters; upstream's audit allows 50", name, len([]rune(name)))
	}
}

// TestBodyCoversEveryMode: the body tells how to install, run and read
// each output mode, and is honest that River Review cannot run a command.
func TestBodyCoversEveryMode(t *testing.T) {
	t.Parallel()
	_, body := frontmatter(t)
	for _, want := range []string{"go install github.com/plangate-gc/plangate-gc/cmd/plangate-gc@",
		"`text`", "`json`", "`findings`", "`artifact`", "--format findings", "--format artifact",
		"no field for running a command", "NO_REVIEW", "`review`", "--merge",
		"**workflow step, not as a prompt**", "## False-positive guards", "## Non-goals"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("SKILL.md body lacks %q", want)
		}
	}
}
