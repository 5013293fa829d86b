//go:build linux

package gc

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/upstream"
	"github.com/plangate-gc/plangate-gc/skill"
)

// writeScript builds an index with upstream's own writers (appendEntry,
// supersede, expireEntries, createSuppression, revokeSuppression), then
// prints what upstream's readers answer.
const writeScript = `
import { appendEntry, supersede, expireEntries, loadMemory, queryMemory } from '%UP%/src/lib/riverbed-memory.mjs';
import { createSuppression, revokeSuppression, findActiveSuppressions } from '%UP%/src/lib/suppression.mjs';
const idx = process.argv[2], phase = process.argv[3];
const old = '2020-01-01T00:00:00.000Z';
const e = (id, type, extra = {}) => ({ id, type, content: 'c ' + id, metadata: { createdAt: old, author: 'test', tags: [type] }, ...extra });
if (phase === 'write') {
  appendEntry(idx, e('adr-1', 'adr'));
  appendEntry(idx, e('pat-1', 'pattern'));
  appendEntry(idx, e('pat-2', 'pattern'));
  supersede(idx, 'pat-1', 'pat-2');
  appendEntry(idx, e('dec-1', 'decision', { expiresAt: old }));
  expireEntries(idx);
  for (let i = 0; i < 5; i++) appendEntry(idx, e('review-' + i, 'review', { metadata: { createdAt: old, author: 'test', phase: 'midstream' } }));
  appendEntry(idx, e('eval-1', 'eval_result'));
  const s1 = createSuppression({ indexPath: idx, findingHash: 'h1', filePaths: ['src/a.mjs'], rationale: 'noise', scope: 'global' });
  const s2 = createSuppression({ indexPath: idx, findingHash: 'h2', filePaths: ['src/b.mjs'], rationale: 'noise' });
  const s3 = createSuppression({ indexPath: idx, findingHash: 'h3', filePaths: ['src/c.mjs'], rationale: 'old', expiresAt: old });
  revokeSuppression(idx, s2.id);
  // An archived suppression that still applies (findActiveSuppressions reads inactive entries).
  const m = loadMemory(idx);
  m.entries.find((x) => x.id === s1.id).status = 'archived';
  (await import('node:fs')).writeFileSync(idx, JSON.stringify(m, null, 2) + '\n');
  process.stdout.write(JSON.stringify({ expiredSuppression: s3.id }) + '\n');
}
const m = loadMemory(idx);
const answers = {
  active: findActiveSuppressions(m, ['src/a.mjs', 'src/b.mjs', 'src/c.mjs']).map((s) => s.id),
  knowledge: ['adr', 'pattern', 'decision', 'wontfix', 'suppression', 'resurface'].map((type) => queryMemory(m, { type }).map((x) => x.id)),
};
if (phase === 'check') {
  const fs = await import('node:fs');
  const text = fs.readFileSync(idx, 'utf8');
  if (text !== JSON.stringify(m, null, 2) + '\n') throw new Error('not in upstream form');
  const Ajv = (await import('%UP%/node_modules/ajv/dist/2020.js')).default;
  const formats = (await import('%UP%/node_modules/ajv-formats/dist/index.js')).default;
  const ajv = new Ajv({ strict: false });
  formats(ajv);
  ajv.addSchema(JSON.parse(fs.readFileSync('%UP%/schemas/riverbed-entry.schema.json', 'utf8')), 'https://river-review.the3396.com/schemas/riverbed-entry.schema.json');
  const ok = ajv.validate(JSON.parse(fs.readFileSync('%UP%/schemas/riverbed-index.schema.json', 'utf8')), m);
  if (!ok) throw new Error('schema: ' + JSON.stringify(ajv.errors));
}
process.stdout.write(JSON.stringify(answers) + '\n');
`

// readerAnswers is what writeScript prints of upstream's readers.
type readerAnswers struct {
	Active    []string
	Knowledge [][]string
}

// TestUpstreamReadersAgree writes an index with upstream's own writers,
// compacts it with --force (a year later), and checks with upstream's own
// code that the result is in upstream's form, valid against upstream's
// schema, that findActiveSuppressions answers exactly as before, and that
// queryMemory of every knowledge type answers as before without exactly
// the removed entries, none of them live (SPEC D3, D5, decisions 74, 83):
// the superseded pattern, the archived (expired) decision and the expired
// suppression upstream's createSuppression wrote without a status, which
// queryMemory still returned.
func TestUpstreamReadersAgree(t *testing.T) {
	up := upstream.Dir(t)
	root := t.TempDir()
	idx := filepath.Join(root, ".river/memory/index.json")
	script := filepath.Join(t.TempDir(), "index.mjs")
	if err := os.WriteFile(script, []byte(strings.ReplaceAll(writeScript, "%UP%", up)), 0o644); err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(string(upstream.Node(t, up, nil, script, idx, "write")), "\n", 2)
	var ids struct{ ExpiredSuppression string }
	var before readerAnswers
	if err := json.Unmarshal([]byte(lines[0]), &ids); err != nil || ids.ExpiredSuppression == "" || len(lines) < 2 {
		t.Fatalf("write phase printed %q: %v", lines, err)
	}
	if err := json.Unmarshal([]byte(lines[1]), &before); err != nil {
		t.Fatal(err)
	}
	if len(before.Knowledge) != 6 || !slices.Contains(before.Knowledge[4], ids.ExpiredSuppression) {
		t.Fatalf("queryMemory({type: 'suppression'}) did not return the expired suppression: %v", before.Knowledge)
	}
	data, _ := os.ReadFile(idx)

	cfg := config(t, root, true)
	cfg.Scopes = []skill.Scope{skill.ScopeMemoryEntries}
	cfg.Now = time.Now().Add(365 * 24 * time.Hour).Unix()
	out, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Errors) != 0 {
		t.Fatalf("errors %v", out.Errors)
	}
	removed := map[string]bool{}
	for _, p := range removedPaths(out) {
		removed[p[strings.IndexByte(p, '#')+1:]] = true
	}
	want := []string{"review-0", "review-1", "review-2", "review-3", "review-4", "eval-1", "pat-1", "dec-1", ids.ExpiredSuppression}
	if len(removed) != len(want) {
		t.Errorf("removed %v, want exactly %v", removed, want)
	}
	for _, w := range want {
		if !removed[w] {
			t.Errorf("%s not removed (removed %v)", w, removed)
		}
	}
	var after readerAnswers
	if err := json.Unmarshal(upstream.Node(t, up, nil, script, idx, "check"), &after); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(after.Active, before.Active) {
		t.Errorf("findActiveSuppressions answers %v, before %v", after.Active, before.Active)
	}
	for i, ans := range before.Knowledge {
		kept := slices.DeleteFunc(slices.Clone(ans), func(id string) bool { return removed[id] })
		if i >= len(after.Knowledge) || !slices.Equal(after.Knowledge[i], kept) {
			t.Errorf("queryMemory answer %d: %v, want %v (before %v without the removed)", i, after.Knowledge, kept, ans)
		}
	}
	if now, _ := os.ReadFile(idx); len(now) >= len(data) {
		t.Errorf("nothing reclaimed: %d → %d bytes", len(data), len(now))
	}
}
