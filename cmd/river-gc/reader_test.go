//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/upstream"
)

// The reproductions of issue 24 ("Data loss", "Lost record (BOM-only)",
// the exclude that names a store), each through the real binary with
// --force, and upstream's own readers asked before and after (SPEC B6).

const (
	indexPath  = ".river/memory/index.json"
	ledgerPath = "artifacts/evals/results.jsonl"
	old        = "2000-01-01T00:00:00.000Z"
)

// askScript prints what upstream's readers answer for the stores of the
// repository argv[2]: queryMemory() and findActiveSuppressions(…,
// ['src/a.mjs']) as the JSON text of each id (so that a lone surrogate
// stays visible), and compare-eval-ledger --json's output and exit.
const askScript = `
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { loadMemory, queryMemory } from '%UP%/src/lib/riverbed-memory.mjs';
import { findActiveSuppressions } from '%UP%/src/lib/suppression.mjs';
const repo = process.argv[2];
const idx = repo + '/.river/memory/index.json', ledger = repo + '/artifacts/evals/results.jsonl';
const out = { query: null, suppressions: null, ledger: null };
if (fs.existsSync(idx)) {
  const m = loadMemory(idx);
  out.query = queryMemory(m).map((e) => JSON.stringify(e.id));
  out.suppressions = findActiveSuppressions(m, ['src/a.mjs']).map((e) => JSON.stringify(e.id));
}
if (fs.existsSync(ledger)) {
  try {
    out.ledger = execFileSync(process.execPath, ['%UP%/scripts/compare-eval-ledger.mjs', '--ledger', ledger, '--json'], { encoding: 'utf8' });
  } catch (e) {
    out.ledger = 'exit ' + e.status + ': ' + e.stdout + e.stderr;
  }
}
console.log(JSON.stringify(out));
`

// upstreamView is askScript's answer.
type upstreamView struct {
	Query, Suppressions []string
	Ledger              *string
}

// askUpstream runs askScript on repo.
func askUpstream(t *testing.T, repo string) upstreamView {
	t.Helper()
	up := upstream.Dir(t)
	script := filepath.Join(t.TempDir(), "ask.mjs")
	if err := os.WriteFile(script, []byte(strings.ReplaceAll(askScript, "%UP%", up)), 0o644); err != nil {
		t.Fatal(err)
	}
	var v upstreamView
	if err := json.Unmarshal(upstream.Node(t, up, nil, script, repo), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// writeStores writes the given files under a new repository root.
func writeStores(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, data := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// gcResult is the part of river-gc's --json result these tests read.
type gcResult struct {
	Removed     []struct{ Path string }
	KeptSummary map[string]struct {
		Protected struct{ Excluded int }
	}
	Warnings []struct{ Kind, Message string }
}

// riverGC runs the real binary at the real time (upstream's readers ask
// new Date()) and returns the removed entry names.
func riverGC(t *testing.T, root string, args ...string) (removed []string, res gcResult) {
	t.Helper()
	bin, err := exec.LookPath("river-gc") // installed on PATH by testscript.Main
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC().Format(time.RFC3339)
	cmd := exec.Command(bin, append([]string{"--root", root, "--now", now, "--json", "--lang", "en"}, args...)...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("river-gc %v: %v\n%s", args, err, errOut.Bytes())
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("river-gc --json: %v\n%s", err, out.Bytes())
	}
	for _, r := range res.Removed {
		removed = append(removed, r.Path)
	}
	slices.Sort(removed)
	return removed, res
}

func suppression(id string, extra string) string {
	return `{"id":` + id + `,"type":"suppression","status":"archived","content":"c","metadata":{"createdAt":"` + old +
		`","relatedFiles":["src/a.mjs"]},"context":{"active":true,"scope":"global"` + extra + `}}`
}

func memoryIndex(entries ...string) string {
	return `{"version":"1","entries":[` + strings.Join(entries, ",\n") + "]}\n"
}

const oldReview = `{"id":"rev-old","type":"review","content":"c","metadata":{"createdAt":"` + old + `"}}`

// TestIssue24ReproductionsThroughTheBinary: each store below lost live
// knowledge or a ledger record with --force on the build of 2026-12-01.
// Now exactly the intended removals happen, and upstream's readers answer
// as before without them.
func TestIssue24ReproductionsThroughTheBinary(t *testing.T) {
	t.Parallel()
	fresh := time.Now().UTC().Add(-24 * time.Hour).Format("2006-01-02T15:04:05.000Z")
	line := func(ts, extra string) string { return `{"timestamp":"` + ts + `"` + extra + `,"scores":{"a":1}}` }
	cases := []struct {
		name    string
		files   map[string]string
		scope   string
		removed []string
	}{{
		// encoding/json matches keys case-insensitively: "Type",
		// "Active" and "EXPIRESAT" decided; JSON.parse's keys are exact.
		name: "case-folded keys (memory)",
		files: map[string]string{indexPath: memoryIndex(
			`{"id":"dec-1","type":"decision","Type":"review","content":"c","metadata":{"createdAt":"`+old+`"}}`,
			suppression(`"sup-1"`, `,"Active":false`),
			`{"id":"pat-1","type":"pattern","EXPIRESAT":"2000-01-02T00:00:00Z","content":"c","metadata":{"createdAt":"`+old+`"}}`,
			oldReview)},
		scope:   "memory-entries",
		removed: []string{indexPath + "#rev-old"},
	}, {
		name: "case-folded key (ledger)",
		files: map[string]string{ledgerPath: line(fresh, `,"Timestamp":"`+old+`"`) + "\n" + line(old, "") + "\n" +
			line(fresh, "") + "\n" + line(fresh, "") + "\n"},
		scope:   "eval-ledger",
		removed: []string{ledgerPath + "#2"},
	}, {
		// Go turned E2 82 into two U+FFFD (WHATWG: one) and both lone
		// surrogates into U+FFFD: the resurfaces "revoked" suppressions
		// upstream keeps applying, and all four went.
		name: "invalid UTF-8 and lone surrogates (memory)",
		files: map[string]string{indexPath: memoryIndex(
			suppression("\"sup-\xE2\x82\"", ""),
			`{"id":"res-1","type":"resurface","status":"archived","content":"c","metadata":{"createdAt":"`+old+`"},"context":{"suppressionId":"sup-\uFFFD\uFFFD","action":"revoke"}}`,
			suppression(`"sup-\ud800"`, ""),
			`{"id":"res-2","type":"resurface","status":"archived","content":"c","metadata":{"createdAt":"`+old+`"},"context":{"suppressionId":"sup-\udfff","action":"revoke"}}`,
			oldReview)},
		scope: "memory-entries",
		// The resurfaces revoke nothing upstream applies; they go.
		removed: []string{indexPath + "#res-1", indexPath + "#res-2", indexPath + "#rev-old"},
	}, {
		// A BOM-only last line is blank to trim(): the newest two lines
		// are 1 and 2, and nothing may go.
		name:  "BOM-only last line (ledger)",
		files: map[string]string{ledgerPath: line(old, "") + "\n" + line(fresh, "") + "\n\xEF\xBB\xBF\n"},
		scope: "eval-ledger",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			root := writeStores(t, c.files)
			removed, _ := riverGC(t, root, "--scope", c.scope, "--force")
			if !slices.Equal(removed, c.removed) {
				t.Errorf("removed %q, want %q", removed, c.removed)
			}
			// Upstream's readers on a fresh copy (before) and on the
			// collected stores (after).
			t.Run("upstream readers", func(t *testing.T) {
				before, after := askUpstream(t, writeStores(t, c.files)), askUpstream(t, root)
				if before.Ledger != nil && (strings.Contains(*before.Ledger, "insufficient") || strings.HasPrefix(*before.Ledger, "exit")) {
					t.Fatalf("compare-eval-ledger compares nothing before the run: %s", *before.Ledger)
				}
				gone := map[string]bool{}
				for _, r := range removed {
					gone[`"`+r[strings.IndexByte(r, '#')+1:]+`"`] = true
				}
				wantQuery := slices.DeleteFunc(slices.Clone(before.Query), func(id string) bool { return gone[id] })
				if !slices.Equal(after.Query, wantQuery) {
					t.Errorf("queryMemory: %q, want %q (before %q)", after.Query, wantQuery, before.Query)
				}
				if !slices.Equal(after.Suppressions, before.Suppressions) {
					t.Errorf("findActiveSuppressions: %q, before %q", after.Suppressions, before.Suppressions)
				}
				if (before.Ledger == nil) != (after.Ledger == nil) || before.Ledger != nil && *before.Ledger != *after.Ledger {
					t.Errorf("compare-eval-ledger: %v, before %v", deref(after.Ledger), deref(before.Ledger))
				}
			})
		})
	}
}

func deref(s *string) string {
	if s == nil {
		return "(no ledger)"
	}
	return *s
}

// TestExcludeNamingAStoreProtectsItsEntries: --exclude with the store's
// own path keeps every entry of it (counted as excluded unless already
// guarded, the file not rewritten, the pattern not "unused"); a negated
// entry name does not take one back (decision 112); <store>#<pattern>
// keeps the entries it names.
func TestExcludeNamingAStoreProtectsItsEntries(t *testing.T) {
	t.Parallel()
	index := memoryIndex(oldReview, strings.ReplaceAll(oldReview, "rev-old", "rev-old2"),
		strings.ReplaceAll(oldReview, `"rev-old","type":"review"`, `"ev-1","type":"eval_result"`))
	ledger := `{"timestamp":"` + old + `"}` + "\n" + `{"timestamp":"` + old + `"}` + "\n" + `{"timestamp":"` + old + `"}` + "\n"
	for _, c := range []struct {
		name     string
		excludes []string
		removed  []string
		excluded int
	}{
		{"memory store", []string{indexPath}, []string{ledgerPath + "#1"}, 3},
		// The ledger's newest two lines count as guarded, not excluded.
		{"ledger store", []string{ledgerPath}, []string{indexPath + "#ev-1", indexPath + "#rev-old", indexPath + "#rev-old2"}, 1},
		{"a glob over both stores", []string{"**/*.json*"}, nil, 4},
		{"a store excluded whole, one entry negated", []string{indexPath, "!" + indexPath + "#rev-old"}, []string{ledgerPath + "#1"}, 3},
		{"entries by name", []string{indexPath + "#rev-*"}, []string{indexPath + "#ev-1", ledgerPath + "#1"}, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			root := writeStores(t, map[string]string{indexPath: index, ledgerPath: ledger})
			args := []string{"--scope", "memory-entries", "--scope", "eval-ledger", "--force"}
			for _, e := range c.excludes {
				args = append(args, "--exclude", e)
			}
			removed, res := riverGC(t, root, args...)
			if !slices.Equal(removed, c.removed) {
				t.Errorf("removed %q, want %q", removed, c.removed)
			}
			excluded := 0
			for _, s := range res.KeptSummary {
				excluded += s.Protected.Excluded
			}
			if excluded != c.excluded {
				t.Errorf("%d entries counted as excluded, want %d", excluded, c.excluded)
			}
			for _, w := range res.Warnings {
				if w.Kind == "unused-exclude" {
					t.Errorf("warning %s", w.Message)
				}
			}
			if data, _ := os.ReadFile(filepath.Join(root, indexPath)); slices.Contains(c.excludes, indexPath) && string(data) != index {
				t.Errorf("the excluded index was rewritten:\n%s", data)
			}
		})
	}
}
