//go:build linux

package riverreview

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/upstream"
)

// reproductions are issue 24's data-loss reproductions as fixed cases of
// the differential test: stores where Go's reading of JSON decided
// otherwise than upstream's, and river-gc --force removed live knowledge
// or shifted the ledger's guard.
var reproductions = []struct{ name, index, ledger string }{
	{name: "key case decides (Type, Active, EXPIRESAT)", index: `{"version":"1","entries":[
 {"id":"dec-1","type":"decision","Type":"review","title":"t","content":"c","metadata":{"createdAt":"2024-01-01T00:00:00.000Z"}},
 {"id":"sup-1","type":"suppression","status":"archived","title":"t","content":"c","metadata":{"createdAt":"2024-01-01T00:00:00.000Z","relatedFiles":["src/a.ts"]},
  "context":{"scope":"file","active":true,"Active":false}},
 {"id":"pat-1","type":"pattern","EXPIRESAT":"2024-02-01T00:00:00.000Z","title":"t","content":"c","metadata":{"createdAt":"2024-01-01T00:00:00.000Z"}},
 {"id":"rev-1","type":"review","title":"t","content":"c","metadata":{"createdAt":"2024-01-01T00:00:00.000Z"}}
]}
`},
	{name: "key case decides (Timestamp)", ledger: `{"timestamp":"2024-01-01T00:00:00.000Z","scores":{"a":1}}
{"timestamp":"2025-05-30T00:00:00.000Z","Timestamp":"2024-01-02T00:00:00.000Z","scores":{"a":1}}
{"timestamp":"2025-05-31T00:00:00.000Z","scores":{"a":1}}
{"timestamp":"2025-05-31T12:00:00.000Z","scores":{"a":0.5}}
`},
	{name: "E2 82 and lone surrogates make ids equal (and the WHATWG decoder makes E2 82 one U+FFFD)", index: `{"version":"1","entries":[
 {"id":"sup-a` + "\xE2\x82" + `","type":"suppression","status":"archived","title":"t","content":"c","metadata":{"createdAt":"2024-01-01T00:00:00.000Z","relatedFiles":["src/a.ts"]},"context":{"scope":"file","active":true}},
 {"id":"res-a","type":"resurface","status":"archived","title":"t","content":"c","metadata":{"createdAt":"2024-01-01T00:00:00.000Z"},"context":{"suppressionId":"sup-a` + "\xEF\xBF\xBD\xEF\xBF\xBD" + `","action":"revoke"}},
 {"id":"sup-b\ud800","type":"suppression","status":"archived","title":"t","content":"c","metadata":{"createdAt":"2024-01-01T00:00:00.000Z","relatedFiles":["src/b.ts"]},"context":{"scope":"file","active":true}},
 {"id":"res-b","type":"resurface","status":"archived","title":"t","content":"c","metadata":{"createdAt":"2024-01-01T00:00:00.000Z"},"context":{"suppressionId":"sup-b\udfff","action":"revoke"}},
 {"id":"sup-c` + "\xE2\x82" + `","type":"suppression","title":"t","content":"c","metadata":{"createdAt":"2024-01-01T00:00:00.000Z","relatedFiles":["src/c.ts"]},"context":{"scope":"file","active":true}},
 {"id":"res-c","type":"resurface","status":"archived","title":"t","content":"c","metadata":{"createdAt":"2024-01-01T00:00:00.000Z"},"context":{"suppressionId":"sup-c` + "\xEF\xBF\xBD" + `","action":"revoke"}}
]}
`},
	{name: "BOM-only last ledger line", ledger: `{"timestamp":"2024-01-01T00:00:00.000Z","scores":{"a":1}}
{"timestamp":"2024-01-02T00:00:00.000Z","scores":{"a":0.9}}
{"timestamp":"2024-01-03T00:00:00.000Z","scores":{"a":1}}
` + "\xEF\xBB\xBF\n"},
}

// findings are the disagreements the differential test found on the
// reader that fixed issue 24 (F1–F4, one case each), as fixed cases:
// stores river-gc --force compacted otherwise than upstream's reading
// allows.
var findings = []struct{ name, index, ledger string }{
	{name: "F1 updatedAt only V8 reads", index: `{"version":"1","entries":[
 {"id":"dec-1","type":"decision","status":"archived","title":"t","content":"c","metadata":{"createdAt":"2024-01-01T00:00:00.000Z","updatedAt":"2025-05-30 00:00:00Z"}},
 {"id":"dec-2","type":"decision","status":"archived","title":"t","content":"c","metadata":{"createdAt":"2024-01-01T00:00:00.000Z","updatedAt":"+002025-05-30T00:00:00.000Z"}},
 {"id":"dec-3","type":"decision","status":"archived","title":"t","content":"c","metadata":{"createdAt":"2024-01-01T00:00:00.000Z","updatedAt":"2025-05-30"}}
]}
`},
	{name: "F2 leap second", ledger: `{"timestamp":"2024-12-31T23:59:60Z"}
{"timestamp":"2025-05-31T00:00:00Z"}
{"timestamp":"2025-05-31T01:00:00Z"}
`},
	{name: "F3 context.expiresAt the string comparison keeps", index: `{"version":"1","entries":[
 {"id":"dec-1","type":"decision","title":"t","content":"c","metadata":{"createdAt":"2024-01-01T00:00:00.000Z"},"context":{"expiresAt":"2025-06-01T08:00:00+09:00"}},
 {"id":"dec-2","type":"decision","title":"t","content":"c","metadata":{"createdAt":"2024-01-01T00:00:00.000Z"},"context":{"expiresAt":true}}
]}
`},
	{name: "F4 references from entries without a string id", index: `{"version":"1","entries":[
 {"id":"rev-1","type":"review","title":"t","content":"c","metadata":{"createdAt":"2024-01-01T00:00:00.000Z"}},
 {"id":5,"type":"decision","title":"t","content":"c","metadata":{"createdAt":"2024-01-01T00:00:00.000Z"},"supersededBy":"rev-1"},
 {"id":"sup-1","type":"suppression","status":"archived","title":"t","content":"c","metadata":{"createdAt":"2024-01-01T00:00:00.000Z","relatedFiles":["src/a.ts"]},"context":{"scope":"file","active":true}},
 {"type":"resurface","title":"t","content":"c","metadata":{"createdAt":"2024-01-01T00:00:00.000Z"},"context":{"suppressionId":"sup-1","action":"revoke"}}
]}
`},
}

// TestStoresDiffFindings runs the differential test's own findings as
// fixed cases, like the reproductions.
func TestStoresDiffFindings(t *testing.T) {
	t.Parallel()
	runFixed(t, findings)
}

// TestStoresDiffReproductions runs every reproduction through the real
// river-gc --force and upstream's readers: none may break D3/D4.
func TestStoresDiffReproductions(t *testing.T) {
	t.Parallel()
	runFixed(t, reproductions)
}

// runFixed runs fixed cases at 2025-06-01T00:00:00Z (UTC, 90 days).
func runFixed(t *testing.T, cases []struct{ name, index, ledger string }) {
	t.Helper()
	dir := upstream.Dir(t)
	bin := diffBin(t)
	child := mustReaders(t, dir)
	for _, r := range cases {
		t.Run(r.name, func(t *testing.T) {
			c := diffCase{Now: "2025-06-01T00:00:00Z", TZ: "UTC", RetentionDays: 90}
			if r.index != "" {
				c.Index = []byte(r.index)
			}
			if r.ledger != "" {
				c.Ledger = []byte(r.ledger)
			}
			v, err := runCase(child, bin, filepath.Join(t.TempDir(), "root"), c)
			if err != nil {
				t.Fatal(err)
			}
			if len(v.Problems) > 0 {
				t.Errorf("river-gc --force broke what upstream reads:\n  %s", strings.Join(v.Problems, "\n  "))
			}
		})
	}
}

// mustReaders starts one readers child for t and stops it at the end.
func mustReaders(t *testing.T, dir string) *readersChild {
	t.Helper()
	child, err := startReaders([]string{"--import", testdata(t, "fakeclock.mjs"), testdata(t, "diff/readers.mjs")}, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(child.stop)
	return child
}

// fakeCompactions are river-gc stand-ins that break one promise each; the
// oracle must name it.
var fakeCompactions = []struct {
	name, script, want string
}{
	{"removes a live decision", `node -e '
const fs = require("fs"); const p = process.argv[1];
const ix = JSON.parse(fs.readFileSync(p, "utf8"));
ix.entries = ix.entries.filter((e) => e.type !== "decision");
fs.writeFileSync(p, JSON.stringify(ix, null, 2) + "\n");' "$root/.river/memory/index.json"
echo '{"removed":[{"path":".river/memory/index.json#dec-1"}],"errors":[]}'`, `removed entry "dec-1" (type "decision"): live knowledge`},
	{"removes the newest ledger line", `sed -i '$d' "$root/artifacts/evals/results.jsonl"
echo '{"removed":[{"path":"artifacts/evals/results.jsonl#4"}],"errors":[]}'`, "one of the newest two"},
	{"says nothing of a removal", `sed -i '1d' "$root/artifacts/evals/results.jsonl"; echo '{"removed":[],"errors":[]}'`, "reports 0 ledger removals; upstream's reading lost 1"},
	{"removes a young line", `sed -i '2d' "$root/artifacts/evals/results.jsonl"
echo '{"removed":[{"path":"artifacts/evals/results.jsonl#2"}],"errors":[]}'`, "is within the retention of 90 days"},
	{"changes a kept line", `sed -i '1s/"a":1/"a":2/' "$root/artifacts/evals/results.jsonl"; echo '{"removed":[],"errors":[]}'`,
		"not the lines before, byte for byte"},
	{"crashes", `echo 'panic: boom' >&2; exit 2`, "river-gc exit 2"},
	{"exits 1 without a reason", `echo '{"removed":[],"errors":[]}'; exit 1`, "without a reason"},
}

// TestStoresDiffOracleCatches proves each check can fail: stand-ins for
// river-gc that break one promise each are caught and named.
func TestStoresDiffOracleCatches(t *testing.T) {
	t.Parallel()
	dir := upstream.Dir(t)
	child := mustReaders(t, dir)
	c := diffCase{Now: "2025-06-01T00:00:00Z", TZ: "UTC", RetentionDays: 90,
		Index: []byte(reproductions[0].index), Ledger: []byte(reproductions[1].ledger)}
	for _, f := range fakeCompactions {
		t.Run(f.name, func(t *testing.T) {
			bin := filepath.Join(t.TempDir(), "fake-river-gc")
			script := "#!/bin/sh\nwhile [ \"$1\" != --root ]; do shift; done; root=$2\n" + f.script + "\n"
			if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			v, err := runCase(child, bin, filepath.Join(t.TempDir(), "root"), c)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(v.Problems, "\n"); !strings.Contains(got, f.want) {
				t.Errorf("the oracle did not catch it: want %q in\n%s", f.want, got)
			}
		})
	}
}
