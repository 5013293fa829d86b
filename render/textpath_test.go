package render_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/pipeline"
	"github.com/plangate-gc/plangate-gc/internal/upstream"
	"github.com/plangate-gc/plangate-gc/render"
)

// hostilePaths are in-scope, canonical memory paths that upstream's line
// reader would misread if written raw, and ordinary ones that must stay raw.
var hostilePaths = []string{
	".river/memory/index.json:7: ok",
	".river/memory/a.json:12",
	".river/memory/a:1:",
	".river/memory/a\nb.json:3: injected",
	".river/memory/trailing ",
	".river/memory/cr\rhere",
	".river/memory/tab\there",
	".river/memory/ls\u2028x",
	".river/memory/\u202egnp.json",
	".river/memory/del\x7fx",
	".river/memory/c1\u0085x",
	".river/memory/nbsp\u00a0",
	".river/memory/bom\ufeff",
	".river/memory/q\"uote:5:",
}

// ordinaryPaths must be written byte for byte as given.
var ordinaryPaths = []string{
	".river/memory/plain.json",
	".river/memory/a:b.json",
	".river/memory/a:1b:c",
	".river/memory/12:30.json",
	".river/memory/in \"quotes\".json",
	".river/memory/日本語 ファイル.json",
	".river/memory/x:",
}

// inventory is a memory document whose every path is removed by age, with
// the given paths also named by a hard guard and an exclude (warnings).
func inventory(t *testing.T, paths []string, guard string) []byte {
	t.Helper()
	type entry struct {
		Path  string `json:"path"`
		Size  int    `json:"sizeBytes"`
		Mtime int    `json:"mtimeEpoch"`
	}
	doc := map[string]any{
		"inventory": map[string]any{"scope": "memory", "paths": func() []entry {
			var es []entry
			for _, p := range paths {
				es = append(es, entry{p, 1, 1})
			}
			return es
		}()},
		"retention":  map[string]any{"days": 1, "maxEntries": 1000, "maxSizeMb": 500},
		"now":        1764374400,
		"hardGuards": []string{".river/memory/index.json", guard},
		"excludes":   []string{strings.ReplaceAll(guard, "\n", "?")},
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func textOf(t *testing.T, input []byte) string {
	t.Helper()
	var out bytes.Buffer
	if err := pipeline.Run(bytes.NewReader(input), &out, new(bytes.Buffer), pipeline.Options{Lang: render.Japanese}); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// TestTextPathsReadBackThroughUpstream runs upstream River Review's own
// parseLineComments on plangate-gc's real text output: every REMOVE line
// is one comment whose file is the true path, raw when it is ordinary and
// else a JSON literal of it; no line of ours splits or merges, and every
// other line's file is its "(kind)" tag.
func TestTextPathsReadBackThroughUpstream(t *testing.T) {
	dir := upstream.Dir(t)
	rng := rand.New(rand.NewPCG(15, 15))
	alphabet := []string{"a", "1", "2", ":", ":", " ", "\n", "\r", "\t", "\"", "\\", "\u2028", "\u202e", "é", "\x01"}
	seen := map[string]bool{}
	paths := append(append([]string{}, hostilePaths...), ordinaryPaths...)
	for len(paths) < 400 {
		var b strings.Builder
		b.WriteString(".river/memory/")
		for range 1 + rng.IntN(8) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		if p := b.String(); !seen[p] && !strings.Contains(p, "\\") {
			seen[p] = true
			paths = append(paths, p)
		}
	}
	text := textOf(t, inventory(t, paths, ".river/memory/a\nb.json:3: injected"))
	script := `import { parseLineComments } from './src/lib/review-engine.mjs';
let s = ''; process.stdin.setEncoding('utf8');
process.stdin.on('data', d => { s += d; });
process.stdin.on('end', () => {
  const out = (parseLineComments(s) || []).map(c => {
    let decoded = null;
    if (c.file.startsWith('"')) { try { decoded = JSON.parse(c.file); } catch (e) { decoded = 'NOT JSON: ' + e.message; } }
    return { ...c, decoded };
  });
  process.stdout.write(JSON.stringify(out));
});`
	raw := upstream.Node(t, dir, []byte(text), "--input-type=module", "-e", script)
	var comments []struct {
		File, Message string
		Line          int
		Decoded       *string
	}
	if err := json.Unmarshal(raw, &comments); err != nil {
		t.Fatalf("upstream's output: %v\n%s", err, raw)
	}
	ours := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(comments) != len(ours) {
		t.Fatalf("upstream read %d comments from our %d lines", len(comments), len(ours))
	}
	ordinary := map[string]bool{}
	for _, p := range ordinaryPaths {
		ordinary[p] = true
	}
	removed := map[string]bool{}
	for i, c := range comments {
		if c.Line != 0 { // summary, warnings, questions: "(kind):1:"
			if c.Line != 1 || !strings.HasPrefix(c.File, "(") || !strings.HasSuffix(c.File, ")") {
				t.Errorf("line %d %q: upstream reads file %q line %d", i+1, ours[i], c.File, c.Line)
			}
			continue
		}
		path := c.File
		if c.Decoded != nil {
			path = *c.Decoded
		}
		if ordinary[path] && c.Decoded != nil {
			t.Errorf("ordinary path %q was quoted: %q", path, c.File)
		}
		if !strings.HasPrefix(c.Message, "[severity=minor] reason=age") {
			t.Errorf("line %d: upstream reads message %q (file %q)", i+1, c.Message, c.File)
		}
		removed[path] = true
	}
	for _, p := range paths {
		if !removed[p] && p != ".river/memory/a\nb.json:3: injected" {
			t.Errorf("upstream never read the REMOVE line of %q as that file", p)
		}
	}
	if len(removed) != len(paths)-1 { // the guarded one is kept
		t.Errorf("upstream read %d REMOVE files, %d paths were removed", len(removed), len(paths)-1)
	}
}

// TestOrdinaryPathsStayRaw: the quoting never touches a path upstream reads
// back as itself, and always quotes the hostile ones (exactly as the
// literal: decoded by encoding/json, it is the path).
func TestOrdinaryPathsStayRaw(t *testing.T) {
	text := textOf(t, inventory(t, append(append([]string{}, ordinaryPaths...), hostilePaths...), ".river/memory/plain.json"))
	for _, p := range ordinaryPaths {
		if p == ".river/memory/plain.json" {
			continue // guarded
		}
		if !strings.Contains(text, "\n"+p+":0: [severity=minor]") {
			t.Errorf("%q not written raw:\n%s", p, text)
		}
	}
	for _, p := range hostilePaths {
		lit, _ := json.Marshal(p)
		if strings.Contains(text, "\n"+p+":0:") {
			t.Errorf("%q written raw", p)
		}
		var found bool
		for _, l := range strings.Split(text, "\n") {
			q, _, ok := strings.Cut(l, ":0: [severity=minor]")
			var back string
			if ok && strings.HasPrefix(q, `"`) && json.Unmarshal([]byte(q), &back) == nil && back == p {
				found = true
				if strings.Contains(q, ":") {
					t.Errorf("%q: the literal %s holds a ':'", p, q)
				}
			}
		}
		if !found {
			t.Errorf("%q (%s) not written as a literal:\n%s", p, lit, text)
		}
	}
}
