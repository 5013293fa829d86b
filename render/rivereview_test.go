package render_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/contracts"
	"github.com/plangate-gc/plangate-gc/internal/pipeline"
	"github.com/plangate-gc/plangate-gc/render"
)

// fixtureInputs returns every fixtures/*/input.json by case name.
func fixtureInputs(t *testing.T) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "fixtures", "*", "input.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures found: %v", err)
	}
	out := make(map[string][]byte, len(paths))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(filepath.Dir(p))] = b
	}
	return out
}

func runFormat(t *testing.T, input []byte, f render.Format, lang render.Lang) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := pipeline.Run(bytes.NewReader(input), &out, new(bytes.Buffer), pipeline.Options{Format: f, Lang: lang}); err != nil {
		t.Fatalf("pipeline: %v", err)
	}
	return out.Bytes()
}

// lines splits JSON Lines output, failing on a blank or non-JSON line.
func lines(t *testing.T, out []byte) []map[string]any {
	t.Helper()
	var docs []map[string]any
	for i, l := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		if l == "" && len(out) == 0 {
			break
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("line %d is not a JSON object: %v\n%s", i+1, err, l)
		}
		docs = append(docs, v)
	}
	return docs
}

// checkUpstream validates findings and artifact output of input against
// River Review's own schemas and checks what the schemas cannot: one line
// per document, ids unique within a document.
func checkUpstream(t *testing.T, name string, input []byte) {
	t.Helper()
	output, artifact := contracts.Schema(t, "output.schema.json"), contracts.Schema(t, "review-artifact.schema.json")
	want := len(lines(t, runFormat(t, input, render.FormatJSON, render.Japanese)))
	for _, lang := range []render.Lang{render.Japanese, render.English} {
		for f, schema := range map[render.Format]interface{ Validate(any) error }{
			render.FormatFindings: output, render.FormatArtifact: artifact} {
			docs := lines(t, runFormat(t, input, f, lang))
			if len(docs) != want {
				t.Fatalf("%s %s %s: %d lines, want one per document (%d)", name, f, lang, len(docs), want)
			}
			for i, d := range docs {
				if err := schema.Validate(d); err != nil {
					t.Errorf("%s %s %s line %d: %#v", name, f, lang, i+1, err)
				}
				key := "issues"
				if f == render.FormatArtifact {
					key = "findings"
				}
				seen := map[string]bool{}
				for _, is := range d[key].([]any) {
					id := is.(map[string]any)["id"].(string)
					if seen[id] {
						t.Errorf("%s %s line %d: duplicate id %s", name, f, i+1, id)
					}
					seen[id] = true
				}
			}
		}
	}
}

func TestFixturesValidateAgainstRiverReview(t *testing.T) {
	for name, input := range fixtureInputs(t) {
		checkUpstream(t, name, input)
	}
}

// TestRandomInputsValidateAgainstRiverReview judges generated documents,
// warnings, handoffs, removals of every reason and odd paths included.
func TestRandomInputsValidateAgainstRiverReview(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for i := range 200 {
		checkUpstream(t, fmt.Sprintf("random-%d", i), randomDocument(rng))
	}
}

func randomDocument(rng *rand.Rand) []byte {
	scopes := []string{"memory", "evals", "review-artifacts", "tmp"}
	prefixes := map[string]string{"memory": ".river/memory/", "evals": "artifacts/evals/",
		"review-artifacts": "artifacts/review-artifact", "tmp": ".river/tmp/"}
	scope := scopes[rng.IntN(len(scopes))]
	const now = 1764374400
	var paths []string
	for range 1 + rng.IntN(30) {
		p := prefixes[scope] + fmt.Sprintf("f%d<&>\"é", rng.IntN(40))
		if scope == "review-artifacts" {
			p = fmt.Sprintf("artifacts/review-artifact-%d.json", rng.IntN(40))
		}
		var mtime any = now - int64(rng.IntN(400))*86400
		switch rng.IntN(10) {
		case 0:
			mtime = nil
		case 1:
			mtime = now + 86400
		}
		paths = append(paths, fmt.Sprintf(`{"path":%q,"sizeBytes":%d,"mtimeEpoch":%s}`,
			p, rng.IntN(3<<20), jsonValue(mtime)))
	}
	if rng.IntN(3) == 0 {
		paths = append(paths, fmt.Sprintf(`{"path":%q,"sizeBytes":1,"mtimeEpoch":1}`, prefixes[scope]+"index.json"))
	}
	days := []string{"90", "0", "-1", "30", "1.5"}[rng.IntN(5)]
	maxEntries := []string{"1000", "5", "0", "2.5"}[rng.IntN(4)]
	maxSizeMb := []string{"500", "1", "0.5", "0"}[rng.IntN(4)]
	guards := []string{`[]`, `[".river/memory/index.json"]`, `null`}[rng.IntN(3)]
	if guards == "null" {
		return fmt.Appendf(nil, `{"inventory":{"scope":%q,"paths":[%s]},"retention":{"days":%s,"maxEntries":%s,"maxSizeMb":%s},"now":%d}`,
			scope, strings.Join(paths, ","), days, maxEntries, maxSizeMb, now)
	}
	return fmt.Appendf(nil, `{"inventory":{"scope":%q,"paths":[%s]},"retention":{"days":%s,"maxEntries":%s,"maxSizeMb":%s},"now":%d,"hardGuards":%s,"excludes":["**/keep*"]}`,
		scope, strings.Join(paths, ","), days, maxEntries, maxSizeMb, now, guards)
}

func jsonValue(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestFindingsAndArtifactAreDeterministic shuffles inventory.paths and
// hardGuards of every decodable fixture document: findings and artifact
// bytes must not change.
func TestFindingsAndArtifactAreDeterministic(t *testing.T) {
	checked := 0
	for name, input := range fixtureInputs(t) {
		var doc map[string]any
		dec := json.NewDecoder(bytes.NewReader(input))
		dec.UseNumber()
		if dec.Decode(&doc) != nil || dec.More() || bytes.Contains(input, []byte(`\u`)) {
			continue // streams, gate cases and escapes are not re-encoded
		}
		inv, _ := doc["inventory"].(map[string]any)
		paths, ok := inv["paths"].([]any)
		if !ok || len(paths) < 2 {
			continue
		}
		base := encode(t, doc)
		if bytes.Contains(runFormat(t, base, render.FormatJSON, render.Japanese), []byte(`"status":"no_review"`)) {
			continue // gate reasons name array indices, as the harness knows
		}
		for _, f := range []render.Format{render.FormatFindings, render.FormatArtifact} {
			want := runFormat(t, base, f, render.Japanese)
			for seed := range uint64(8) {
				rng := rand.New(rand.NewPCG(seed, 1))
				rng.Shuffle(len(paths), func(i, j int) { paths[i], paths[j] = paths[j], paths[i] })
				if g, ok := doc["hardGuards"].([]any); ok {
					rng.Shuffle(len(g), func(i, j int) { g[i], g[j] = g[j], g[i] })
				}
				if got := runFormat(t, encode(t, doc), f, render.Japanese); !bytes.Equal(got, want) {
					t.Fatalf("%s %s seed %d: output changed under permutation\nwant %s\n got %s", name, f, seed, want, got)
				}
			}
		}
		checked++
	}
	if checked < 10 {
		t.Fatalf("only %d fixtures were permuted", checked)
	}
}

func encode(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
