//go:build linux

package riverreview

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// small is a short simulation: enough of every writer to exercise them.
var small = []string{"--days", "12", "--memory", "10", "--suppressions", "6", "--runs", "8"}

// storeFiles returns the contents of every regular file under the stores.
func storeFiles(t *testing.T, repo string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, dir := range []string{".river", "artifacts"} {
		filepath.WalkDir(filepath.Join(repo, dir), func(p string, d os.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(repo, p)
			out[rel] = string(data)
			return nil
		})
	}
	return out
}

// TestSimulatorIsDeterministic: the same seed writes the same stores byte
// for byte (file names included); another seed writes others.
func TestSimulatorIsDeterministic(t *testing.T) {
	t.Parallel()
	a, _ := simulate(t, small...)
	b, _ := simulate(t, small...)
	fa, fb := storeFiles(t, a), storeFiles(t, b)
	if len(fa) < 10 {
		t.Fatalf("the simulation wrote %d files", len(fa))
	}
	for p, data := range fa {
		if fb[p] != data {
			t.Errorf("%s differs between two runs with one seed", p)
		}
	}
	if len(fa) != len(fb) {
		t.Errorf("%d files, then %d", len(fa), len(fb))
	}
	c, _ := simulateSeed(t, "18", small...)
	if storeFiles(t, c)[".river/memory/index.json"] == fa[".river/memory/index.json"] {
		t.Error("another seed wrote the same index")
	}
}

// TestHarnessSeesBrokenStores proves the reader harness can fail: an entry
// that breaks upstream's index schema, a ledger line that breaks the ledger
// schema, and a changed entry all show in its answer.
func TestHarnessSeesBrokenStores(t *testing.T) {
	t.Parallel()
	repo, log := simulate(t, small...)
	before := decodeAnswers(t, readStores(t, repo, log.End, nil))
	if len(before.Schema.Index) > 0 || len(before.Schema.Ledger) > 0 || len(before.Suppressions) == 0 || len(before.Active) == 0 {
		t.Fatalf("a fresh simulation does not read clean: %+v", before.Schema)
	}
	index := filepath.Join(repo, ".river/memory/index.json")
	data, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	// Upstream's createSuppression with a PR number writes links ["PR#n"],
	// which upstream's entry schema rejects (format uri); simulate that
	// write, and change the first entry's content.
	broken := bytes.Replace(data, []byte(`"author": "river-review",`), []byte(`"author": "river-review", "links": ["PR#7"],`), 1)
	first := log.Memory[0].ID
	broken = bytes.Replace(broken, []byte(`"content": "`), []byte(`"content": "changed `), 1)
	if err := os.WriteFile(index, broken, 0o644); err != nil {
		t.Fatal(err)
	}
	ledger := filepath.Join(repo, "artifacts/evals/results.jsonl")
	f, err := os.OpenFile(ledger, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"timestamp":"2025-01-13T00:00:00.000Z","status":"maybe"}` + "\n")
	f.Close()
	after := decodeAnswers(t, readStores(t, repo, log.End, nil))
	if !strings.Contains(strings.Join(after.Schema.Index, "\n"), "links") {
		t.Errorf("the index schema errors do not name the links: %v", after.Schema.Index)
	}
	if len(after.Schema.Ledger) != 1 {
		t.Errorf("ledger schema errors %v: want one line", after.Schema.Ledger)
	}
	if after.Entries[first] == before.Entries[first] {
		t.Errorf("entry %s changed and its hash did not", first)
	}
}
