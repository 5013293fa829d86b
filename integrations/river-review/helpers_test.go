package riverreview

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/pipeline"
	"github.com/plangate-gc/plangate-gc/internal/testbin"
	"github.com/plangate-gc/plangate-gc/internal/upstream"
	"github.com/plangate-gc/plangate-gc/render"
)

// langs are the two languages every upstream check runs in.
var langs = []render.Lang{render.Japanese, render.English}

// fixture is one evaluation case's input.
type fixture struct {
	name  string
	input []byte
}

// fixtures returns every fixtures/*/input.json, by name.
func fixtures(t *testing.T) []fixture {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "..", "fixtures", "*", "input.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures found: %v", err)
	}
	slices.Sort(paths)
	out := make([]fixture, 0, len(paths))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fixture{filepath.Base(filepath.Dir(p)), b})
	}
	return out
}

// judge runs plangate-gc's pipeline in-process, as the command does.
func judge(t *testing.T, input []byte, f render.Format, lang render.Lang, merge bool) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := pipeline.Run(bytes.NewReader(input), &out, new(bytes.Buffer),
		pipeline.Options{Format: f, Lang: lang, Merge: merge}); err != nil {
		t.Fatalf("pipeline: %v", err)
	}
	return out.Bytes()
}

// jsonLines splits JSON Lines output into raw documents.
func jsonLines(t *testing.T, out []byte) []json.RawMessage {
	t.Helper()
	var docs []json.RawMessage
	for _, l := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		if !json.Valid([]byte(l)) {
			t.Fatalf("not a JSON line: %q", l)
		}
		docs = append(docs, json.RawMessage(l))
	}
	return docs
}

// node runs an ES module script in the installed upstream copy dir with in
// as JSON on stdin, and decodes its stdout (one JSON value) into out.
func node(t *testing.T, dir, script string, in, out any) {
	t.Helper()
	stdin, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	got := upstream.Node(t, dir, stdin, "--input-type=module", "-e", script)
	if err := json.Unmarshal(got, out); err != nil {
		t.Fatalf("node output is not JSON: %v\n%.2000s", err, got)
	}
}

// readStdin is the prelude of every script: `input` is the test's JSON.
const readStdin = `import fs from 'node:fs';
const input = JSON.parse(fs.readFileSync(0, 'utf8'));
`

// removals returns one skill input document of scope tmp with n aged
// files (REMOVE by age) and a few kept ones.
func removals(n int, now int64) []byte {
	var b strings.Builder
	b.WriteString(`{"inventory":{"scope":"tmp","paths":[`)
	for i := range n + 3 {
		if i > 0 {
			b.WriteByte(',')
		}
		mtime := now - 200*86400
		if i >= n {
			mtime = now
		}
		b.WriteString(`{"path":".river/tmp/run-` + strconv.Itoa(i) + `.json","sizeBytes":` + strconv.Itoa(1000+i) +
			`,"mtimeEpoch":` + strconv.FormatInt(mtime, 10) + `}`)
	}
	b.WriteString(`]},"retention":{"days":90,"maxEntries":10000000,"maxSizeMb":1000000},"now":` +
		strconv.FormatInt(now, 10) + "}\n")
	return []byte(b.String())
}

// ourSkillDir installs our SKILL.md into a private upstream copy, where
// upstream's registry would hold it, and returns the copy.
func ourSkillDir(t *testing.T) (dir, rel string) {
	t.Helper()
	dir = upstream.Copy(t)
	rel = filepath.Join("skills", "upstream", render.ArtifactSkillID, "SKILL.md")
	data, err := os.ReadFile("SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, rel), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, rel
}

// buildRiverGC returns river-gc built from this module, one build shared
// by every test (internal/testbin).
func buildRiverGC(t *testing.T) string {
	t.Helper()
	return testbin.Build(t, testbin.RiverGC)
}
