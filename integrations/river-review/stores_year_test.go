//go:build linux

package riverreview

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/longtest"
)

// removedItem is one item of river-gc's removed[].
type removedItem struct {
	Path      string `json:"path"`
	SizeBytes int64  `json:"sizeBytes"`
	Reason    string `json:"reason"`
	Entry     *struct {
		Store string `json:"store"`
		ID    string `json:"id"`
		Line  int    `json:"line"`
	} `json:"entry"`
}

// TestYearOfUpstreamStores simulates a year of upstream River Review's own
// writers (730 eval runs with their ledger lines and memory records, 365
// memory entries, 159 suppressions, 530 saved runs), asks upstream's
// readers what they answer, compacts with the real river-gc --force and
// every store scope, and asks again. Every live answer must be the same;
// river gc must have removed exactly what SPEC D1–D4 say, computed here
// from the simulator's log, and left every kept byte where it was.
func TestYearOfUpstreamStores(t *testing.T) {
	t.Parallel()
	// A long suite: alone it takes about 20 s of CPU, and 150 s of a
	// parallel go test at load 10, the longest test of the package. CI
	// runs it (.ci/run sets PLANGATE_GC_LONG=1); the plain run keeps the
	// short simulations (TestSimulatorIsDeterministic,
	// TestHarnessSeesBrokenStores, TestStoresDiffSmoke's base).
	longtest.Require(t, "a simulated year of upstream's writers")
	if testing.Short() {
		t.Skip("-short: simulates a year of upstream's writers (about 20 s)")
	}
	repo, log := simulate(t)
	now := log.End
	beforeRaw := readStores(t, repo, now, nil)
	before := decodeAnswers(t, beforeRaw)
	if len(before.Schema.Index) > 0 || len(before.Schema.Ledger) > 0 || before.Schema.LedgerLines != len(log.Ledger) {
		t.Fatalf("upstream's writers produced stores their own schemas reject: %v %v", before.Schema.Index, before.Schema.Ledger)
	}
	indexPath := filepath.Join(repo, ".river/memory/index.json")
	indexBefore, err := os.ReadFile(indexPath)
	if err != nil {
		t.Fatal(err)
	}
	if got := upstreamForm(t, indexBefore, nil); !bytes.Equal(got, indexBefore) {
		t.Fatal("upstreamForm does not reproduce upstream's own index bytes: the comparison below would prove nothing")
	}
	linesBefore := ledgerLines(t, repo)
	runsBefore := identities(t, repo, ".river/runs")
	totalBefore, filesBefore := storeBytes(t, repo)

	ex := expect(t, log, now, 90)
	if len(ex.memory) == 0 || len(ex.ledger) == 0 || len(ex.runs) == 0 {
		t.Fatalf("the simulation leaves nothing to reclaim in some store: %d entries, %d lines, %d runs", len(ex.memory), len(ex.ledger), len(ex.runs))
	}

	bin := buildRiverGC(t)
	args := []string{"--root", repo, "--now", now, "--force", "--json", "--quiet",
		"--scope", "all", "--scope", "runs", "--scope", "memory-entries", "--scope", "eval-ledger"}

	// Per-scope retention (a dry run): the entry stores at 30 days, saved
	// runs at the default 90.
	ex30, ex90 := expect(t, log, now, 30), ex
	dry := slices.Concat(slices.DeleteFunc(slices.Clone(args), func(a string) bool { return a == "--force" }),
		[]string{"--retention-days", "memory-entries=30", "--retention-days", "eval-ledger=30"})
	got, _ := runRemovals(t, bin, dry)
	want := expected{memory: ex30.memory, ledger: ex30.ledger, runs: ex90.runs}
	if !maps.Equal(got.memory, want.memory) || !maps.Equal(got.ledger, want.ledger) || !maps.Equal(got.runs, want.runs) {
		t.Errorf("per-scope retention: removed %d entries, %d lines, %d runs; want %d, %d, %d",
			len(got.memory), len(got.ledger), len(got.runs), len(want.memory), len(want.ledger), len(want.runs))
	}
	if data, _ := os.ReadFile(indexPath); !bytes.Equal(data, indexBefore) {
		t.Fatal("a dry run changed index.json")
	}

	got, reported := runRemovals(t, bin, args)
	checkRemovals(t, got, ex)

	// The stores are exactly what is left of them, byte for byte.
	indexAfter, err := os.ReadFile(indexPath)
	if err != nil {
		t.Fatal(err)
	}
	if want := upstreamForm(t, indexBefore, ex.memory); !bytes.Equal(indexAfter, want) {
		t.Errorf("index.json is not upstream's form of the kept entries (%d bytes, want %d)", len(indexAfter), len(want))
	}
	var wantLines []string
	for i, l := range linesBefore {
		if !ex.ledger[i+1] {
			wantLines = append(wantLines, l)
		}
	}
	if g := ledgerLines(t, repo); !slices.Equal(g, wantLines) {
		t.Errorf("results.jsonl keeps %d lines, want the %d kept ones unchanged and in order", len(g), len(wantLines))
	}
	runsAfter := identities(t, repo, ".river/runs")
	wantRuns := maps.Clone(runsBefore)
	maps.DeleteFunc(wantRuns, func(p string, _ identity) bool { return ex.runs[p] })
	if !maps.Equal(runsAfter, wantRuns) {
		t.Errorf("saved runs left: %d, want the %d kept ones untouched (same inode, same bytes)", len(runsAfter), len(wantRuns))
	}

	// Upstream's readers: findActiveSuppressions answers exactly the same;
	// every queryMemory answer (active only, or with inactive entries) is
	// the one before without the removed entries, in the same order; every
	// kept entry is unchanged.
	after := decodeAnswers(t, readStores(t, repo, now, beforeRaw))
	if !bytes.Equal(after.Space, before.Space) {
		t.Fatal("the reader harness asked other questions after the compaction")
	}
	if len(before.Suppressions) == 0 || !maps.EqualFunc(after.Suppressions, before.Suppressions, slices.Equal) {
		t.Error("findActiveSuppressions answers differently")
	}
	for name, pair := range map[string][2]map[string][]string{
		"queryMemory":                          {before.Active, after.Active},
		"queryMemory({includeInactive: true})": {before.Inactive, after.Inactive},
	} {
		want := map[string][]string{}
		for q, ids := range pair[0] {
			if kept := slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return ex.memory[id] }); len(kept) > 0 {
				want[q] = kept
			}
		}
		if len(want) == 0 || !maps.EqualFunc(pair[1], want, slices.Equal) {
			t.Errorf("%s lost more, or other, than the removed entries", name)
		}
	}
	wantEntries := maps.Clone(before.Entries)
	maps.DeleteFunc(wantEntries, func(id, _ string) bool { return ex.memory[id] })
	if !maps.Equal(after.Entries, wantEntries) {
		t.Errorf("entries left: %d, want the %d kept ones unchanged", len(after.Entries), len(wantEntries))
	}
	if !bytes.Equal(after.Ledger, before.Ledger) {
		t.Errorf("compare-eval-ledger answers differently:\nbefore %s\nafter  %s", before.Ledger, after.Ledger)
	}
	if len(after.Schema.Index) > 0 || len(after.Schema.Ledger) > 0 {
		t.Errorf("after compaction the stores fail upstream's schemas: %v %v", after.Schema.Index, after.Schema.Ledger)
	}

	totalAfter, filesAfter := storeBytes(t, repo)
	t.Logf("simulated year: %d bytes in %d files; river gc removed %d entries, %d ledger lines, %d saved runs (reported %d bytes); left %d bytes in %d files; reclaimed %d bytes = %.1f%%",
		totalBefore, filesBefore, len(ex.memory), len(ex.ledger), len(ex.runs), reported,
		totalAfter, filesAfter, totalBefore-totalAfter, 100*float64(totalBefore-totalAfter)/float64(totalBefore))
	t.Logf("index.json %d -> %d bytes; results.jsonl %d -> %d lines; runs %d -> %d files",
		len(indexBefore), len(indexAfter), len(linesBefore), len(wantLines), len(runsBefore), len(runsAfter))

	// A second run finds nothing more to do.
	if again, _ := runRemovals(t, bin, args); len(again.memory)+len(again.ledger)+len(again.runs) > 0 {
		t.Errorf("a second --force removes again: %d entries, %d lines, %d runs", len(again.memory), len(again.ledger), len(again.runs))
	}
	if again, _ := os.ReadFile(indexPath); !bytes.Equal(again, indexAfter) {
		t.Error("a second --force rewrote index.json")
	}
}

// upstreamForm is what upstream's writer would write for the index in
// before without the entries whose ids are in removed:
// JSON.stringify(index, null, 2) + "\n", the top-level members in their
// order and every kept entry with its bytes.
func upstreamForm(t *testing.T, before []byte, removed map[string]bool) []byte {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(before))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("index.json is not an object: %v", err)
	}
	var doc bytes.Buffer
	doc.WriteByte('{')
	for n := 0; dec.More(); n++ {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			doc.WriteByte(',')
		}
		key, _ := json.Marshal(tok.(string))
		doc.Write(key)
		doc.WriteByte(':')
		if tok != "entries" {
			json.Compact(&doc, raw)
			continue
		}
		var entries []json.RawMessage
		if err := json.Unmarshal(raw, &entries); err != nil {
			t.Fatal(err)
		}
		doc.WriteByte('[')
		kept := 0
		for _, e := range entries {
			var id struct {
				ID string `json:"id"`
			}
			json.Unmarshal(e, &id)
			if removed[id.ID] {
				continue
			}
			if kept > 0 {
				doc.WriteByte(',')
			}
			json.Compact(&doc, e)
			kept++
		}
		doc.WriteByte(']')
	}
	doc.WriteByte('}')
	var out bytes.Buffer
	if err := json.Indent(&out, doc.Bytes(), "", "  "); err != nil {
		t.Fatal(err)
	}
	out.WriteByte('\n')
	return out.Bytes()
}

// runRemovals runs river-gc with args and sorts its removed[] by store; any
// error, or a removal that is no store entry or saved run, fails t.
func runRemovals(t *testing.T, bin string, args []string) (got expected, reported int64) {
	t.Helper()
	stdout, stderr, code := run(t, bin, args...)
	if code != 0 {
		t.Fatalf("river-gc exit %d\n%s", code, stderr)
	}
	var res struct {
		Removed []removedItem `json:"removed"`
		Errors  []any         `json:"errors"`
	}
	if err := json.Unmarshal(stdout, &res); err != nil {
		t.Fatalf("river-gc --json: %v\n%s", err, stdout)
	}
	got = expected{memory: map[string]bool{}, ledger: map[int]bool{}, runs: map[string]bool{}}
	for _, r := range res.Removed {
		reported += r.SizeBytes
		memoryID, isMemory := strings.CutPrefix(r.Path, ".river/memory/index.json#")
		ledgerLine, isLedger := strings.CutPrefix(r.Path, "artifacts/evals/results.jsonl#")
		switch {
		case isMemory:
			id, err := url.PathUnescape(memoryID)
			if err != nil || r.Entry != nil && (r.Entry.Store != ".river/memory/index.json" || r.Entry.ID != id) {
				t.Errorf("removed %s: its entry is %+v", r.Path, r.Entry)
			}
			got.memory[id] = true
		case isLedger:
			n, err := strconv.Atoi(ledgerLine)
			if err != nil || r.Entry != nil && (r.Entry.Store != "artifacts/evals/results.jsonl" || r.Entry.Line != n) {
				t.Errorf("removed %s: its entry is %+v", r.Path, r.Entry)
			}
			got.ledger[n] = true
		case strings.HasPrefix(r.Path, ".river/runs/"):
			got.runs[r.Path] = true
		default:
			t.Errorf("removed something that is no store entry or saved run: %+v", r)
		}
	}
	if len(res.Errors) > 0 {
		t.Errorf("errors[]: %v", res.Errors)
	}
	return got, reported
}

// checkRemovals compares what river gc removed with what SPEC says.
func checkRemovals(t *testing.T, got, ex expected) {
	t.Helper()
	diff(t, "memory entries", got.memory, ex.memory)
	diff(t, "ledger lines", got.ledger, ex.ledger)
	diff(t, "saved runs", got.runs, ex.runs)
}

// diff reports, for one store, what was removed but not expected and what
// was expected but not removed (the first ten of each).
func diff[K string | int](t *testing.T, name string, got, want map[K]bool) {
	t.Helper()
	if maps.Equal(got, want) {
		return
	}
	var extra, missing []K
	for _, k := range sortedKeys(got) {
		if !want[k] {
			extra = append(extra, k)
		}
	}
	for _, k := range sortedKeys(want) {
		if !got[k] {
			missing = append(missing, k)
		}
	}
	t.Errorf("%s: removed %d, want %d; not expected %v; not removed %v", name, len(got), len(want), first(extra), first(missing))
}

// first returns at most the first ten of xs.
func first[K any](xs []K) []K {
	return xs[:min(len(xs), 10)]
}
