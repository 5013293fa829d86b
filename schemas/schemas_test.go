package schemas_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/plangate-gc/plangate-gc/internal/contracts"
	"github.com/plangate-gc/plangate-gc/internal/pipeline"
	"github.com/plangate-gc/plangate-gc/render"
	"github.com/plangate-gc/plangate-gc/schemas"
)

func decodeLines(t *testing.T, out []byte) []any {
	t.Helper()
	var docs []any
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	for dec.More() {
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("output is not JSON Lines: %v", err)
		}
		docs = append(docs, v)
	}
	return docs
}

// TestResultSchemaValidatesEveryFixture runs every fixture with --json (both
// languages) and validates each line against the published result schema;
// every status must have been seen.
func TestResultSchemaValidatesEveryFixture(t *testing.T) {
	schema := contracts.Compile(t, schemas.ResultID, schemas.Result)
	inputs, _ := filepath.Glob(filepath.Join("..", "fixtures", "*", "input.json"))
	if len(inputs) == 0 {
		t.Fatal("no fixtures")
	}
	statuses := map[string]int{}
	for _, p := range inputs {
		input, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, lang := range []render.Lang{render.Japanese, render.English} {
			var out bytes.Buffer
			if err := pipeline.Run(bytes.NewReader(input), &out, new(bytes.Buffer), pipeline.Options{JSON: true, Lang: lang}); err != nil {
				t.Fatal(err)
			}
			for i, d := range decodeLines(t, out.Bytes()) {
				if err := schema.Validate(d); err != nil {
					t.Errorf("%s (%s) line %d: %#v", p, lang, i+1, err)
				}
				statuses[d.(map[string]any)["status"].(string)]++
			}
		}
	}
	for _, s := range []string{"ok", "no_review", "handoff"} {
		if statuses[s] == 0 {
			t.Errorf("no fixture produced status %s", s)
		}
	}
}

// TestResultSchemaRejects: the schema is not a rubber stamp.
func TestResultSchemaRejects(t *testing.T) {
	schema := contracts.Compile(t, schemas.ResultID, schemas.Result)
	for name, doc := range map[string]string{
		"no_review without gate":    `{"version":"1","skill":"plangate-gc-deterministic","status":"no_review"}`,
		"ok without counts":         `{"version":"1","skill":"plangate-gc-deterministic","status":"ok","scope":"tmp","now":1,"retention":{"days":1,"maxEntries":1,"maxSizeMb":1},"removed":[],"evidence":[],"warnings":[],"questions":[]}`,
		"handoff without questions": `{"version":"1","skill":"plangate-gc-deterministic","status":"handoff","scope":"tmp","now":1,"retention":{"days":-1,"maxEntries":1,"maxSizeMb":1},"removed":[],"evidence":[],"warnings":[],"questions":[]}`,
		"unknown reason":            `{"version":"1","skill":"plangate-gc-deterministic","status":"ok","scope":"tmp","now":1,"retention":{"days":1,"maxEntries":1,"maxSizeMb":1},"removed":[{"path":"a","sizeBytes":1,"reason":"old"}],"keptSummary":{"count":0,"sizeBytes":0},"counts":{"keep":0,"remove":1,"hardGuarded":0,"excluded":0,"mtimeMissing":0,"mtimeInconsistent":0,"duplicates":0,"directories":0,"outOfScope":0},"evidence":[],"warnings":[],"questions":[]}`,
	} {
		var v any
		if err := json.Unmarshal([]byte(doc), &v); err != nil {
			t.Fatal(err)
		}
		if schema.Validate(v) == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestGCResultSchemaValidatesRiverGCGoldens validates every river-gc --json
// object found in cmd/river-gc's testscript files.
func TestGCResultSchemaValidatesRiverGCGoldens(t *testing.T) {
	schema := contracts.Compile(t, schemas.GCResultID, schemas.GCResult)
	scripts, _ := filepath.Glob(filepath.Join("..", "cmd", "river-gc", "testdata", "script", "*.txtar"))
	found := 0
	for _, p := range scripts {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if !bytes.Contains(f.Data, []byte(`"mode"`)) || !strings.HasPrefix(strings.TrimSpace(string(f.Data)), "{") {
				continue
			}
			var v any
			if err := json.Unmarshal(f.Data, &v); err != nil {
				continue // a fragment, not a whole output
			}
			found++
			if err := schema.Validate(v); err != nil {
				t.Errorf("%s %s: %#v", p, f.Name, err)
			}
		}
	}
	if found == 0 {
		t.Skip("no river-gc JSON goldens found in cmd/river-gc/testdata")
	}
	t.Logf("validated %d river-gc JSON goldens", found)
}

// TestByName: the schema command's names.
func TestByName(t *testing.T) {
	for name, want := range map[string]string{"input": schemas.InputID, "result": schemas.ResultID, "gc-result": schemas.GCResultID} {
		if !bytes.Contains(schemas.ByName(name), []byte(`"$id": "`+want+`"`)) {
			t.Errorf("%s: wrong schema", name)
		}
	}
}
