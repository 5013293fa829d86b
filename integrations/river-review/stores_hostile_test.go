//go:build linux

package riverreview

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/longtest"
	"github.com/plangate-gc/plangate-gc/internal/upstream"
)

// A second differential test of the entry scopes against upstream's
// readers, with a generator, readers and checks of its own
// (testdata/hostile: gen.mjs, ask.mjs, check.mjs), independent of
// stores_diff*: each case is asked of upstream's queryMemory,
// findActiveSuppressions and compare-eval-ledger, compacted by river-gc
// --force with every policy at its hardest (0 days, 1 entry), and asked
// again; check.mjs holds D3/D4 to the two answers.

// envA2Cases is how many generated cases TestStoresHostileFuzz runs
// (default 300; it runs with PLANGATE_GC_LONG=1).
const envA2Cases = "PLANGATE_GC_A2_CASES"

// a2Now is the instant of every case, for river-gc and for upstream.
const a2Now = "2026-06-01T00:00:00Z"

// TestStoresHostileCheckCanFail: check.mjs fails when a live decision is
// removed (the store rewritten by hand without it), so a passing case
// means something.
func TestStoresHostileCheckCanFail(t *testing.T) {
	t.Parallel()
	up := upstream.Dir(t)
	td, _ := filepath.Abs("testdata")
	repo := filepath.Join(t.TempDir(), "repo")
	index := filepath.Join(repo, ".river", "memory", "index.json")
	os.MkdirAll(filepath.Dir(index), 0o755)
	entry := func(id, typ string) string {
		return `{"id":"` + id + `","type":"` + typ + `","title":"t","content":"c","metadata":{"createdAt":"2020-01-01T00:00:00Z","author":"a"}}`
	}
	write := func(entries ...string) {
		if err := os.WriteFile(index, []byte(`{"version":"1","entries":[`+strings.Join(entries, ",")+"]}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ask := func(out string, extra ...string) {
		cmd := exec.Command("node", append([]string{"--import", filepath.Join(td, "fakeclock.mjs"), filepath.Join(td, "hostile", "ask.mjs"), up, repo}, extra...)...)
		cmd.Env = append(os.Environ(), "SIM_NOW="+a2Now)
		b, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(out, b, 0o644)
	}
	write(entry("d1", "decision"), entry("r1", "review"))
	ask(repo + ".before")
	write(entry("r1", "review"))
	ask(repo+".after", repo+".before")
	out, _ := exec.Command("node", filepath.Join(td, "hostile", "check.mjs"), repo+".before", repo+".after").Output()
	if !strings.Contains(string(out), "LIVE removed") {
		t.Errorf("check.mjs does not see a live decision removed:\n%s", out)
	}
}

// a2Case compacts the stores in repo and checks upstream's answers
// before and after; it returns how many entries and lines river-gc
// removed.
func a2Case(t *testing.T, bin, up, repo string) int {
	t.Helper()
	td, _ := filepath.Abs("testdata")
	ask := func(out string, extra ...string) {
		args := append([]string{"--import", filepath.Join(td, "fakeclock.mjs"), filepath.Join(td, "hostile", "ask.mjs"), up, repo}, extra...)
		cmd := exec.Command("node", args...)
		cmd.Env = append(os.Environ(), "SIM_NOW="+a2Now, "NO_COLOR=1")
		b, err := cmd.Output()
		if err != nil {
			t.Fatalf("ask.mjs %s: %v", repo, err)
		}
		if err := os.WriteFile(out, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before, after := repo+".before", repo+".after"
	ask(before)
	gc := exec.Command(bin, "--root", repo, "--force", "--json", "--quiet", "--now", a2Now,
		"--scope", "memory-entries", "--scope", "eval-ledger", "--retention-days", "0", "--max-entries", "1")
	out, err := gc.Output()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	var rec struct{ Removed []json.RawMessage }
	if json.Unmarshal(out, &rec) != nil {
		t.Fatalf("%s: river-gc wrote no record (exit %d)\n%s", repo, gc.ProcessState.ExitCode(), out)
	}
	ask(after, before)
	check := exec.Command("node", filepath.Join(td, "hostile", "check.mjs"), before, after)
	problems, _ := check.Output()
	if check.ProcessState.ExitCode() != 0 {
		t.Errorf("%s: upstream's readers answer differently after river-gc --force:\n%s", repo, problems)
	}
	return len(rec.Removed)
}

// TestStoresHostileTraps: hand-made hostile stores (testdata/hostile/traps:
// expiries Node reads otherwise than a date library would, types and ids
// that only look alike, stores that are not upstream's form, ledgers with
// CRLF, NBSP, LS, NEL, BOMs, non-object lines, invalid newest lines).
func TestStoresHostileTraps(t *testing.T) {
	t.Parallel()
	longtest.Require(t, "hostile stores asked of upstream's readers")
	up := upstream.Dir(t)
	bin := diffBin(t)
	traps, err := filepath.Glob(filepath.Join("testdata", "hostile", "traps", "*"))
	if err != nil || len(traps) < 20 {
		t.Fatalf("traps: %v (%d)", err, len(traps))
	}
	removed := 0
	for _, trap := range traps {
		name := filepath.Base(trap)
		t.Run(name, func(t *testing.T) {
			repo := filepath.Join(t.TempDir(), "repo")
			store := filepath.Join(repo, ".river", "memory", "index.json")
			if strings.HasSuffix(name, ".results.jsonl") {
				store = filepath.Join(repo, "artifacts", "evals", "results.jsonl")
			}
			data, err := os.ReadFile(trap)
			if err != nil {
				t.Fatal(err)
			}
			os.MkdirAll(filepath.Join(repo, ".river", "memory"), 0o755)
			os.MkdirAll(filepath.Join(repo, "artifacts", "evals"), 0o755)
			if err := os.WriteFile(store, data, 0o644); err != nil {
				t.Fatal(err)
			}
			removed += a2Case(t, bin, up, repo)
		})
	}
	if removed < 50 {
		t.Errorf("the traps removed %d entries in all: they test too little", removed)
	}
}

// TestStoresHostileFuzz: generated hostile indexes (gen.mjs), seeds
// 1..PLANGATE_GC_A2_CASES.
func TestStoresHostileFuzz(t *testing.T) {
	t.Parallel()
	longtest.Require(t, "a differential fuzz of the entry scopes against upstream's readers")
	up := upstream.Dir(t)
	bin := diffBin(t)
	n := 300
	if v, err := strconv.Atoi(os.Getenv(envA2Cases)); err == nil && v > 0 {
		n = v
	}
	td, _ := filepath.Abs("testdata")
	removed := 0
	for seed := 1; seed <= n && !t.Failed(); seed++ {
		repo := filepath.Join(t.TempDir(), "repo")
		if out, err := exec.Command("node", filepath.Join(td, "hostile", "gen.mjs"), strconv.Itoa(seed), repo).CombinedOutput(); err != nil {
			t.Fatalf("gen.mjs %d: %v\n%s", seed, err, out)
		}
		removed += a2Case(t, bin, up, repo)
	}
	if removed < n {
		t.Errorf("%d cases removed %d entries in all: the generator tests too little", n, removed)
	}
}
