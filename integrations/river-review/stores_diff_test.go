//go:build linux

package riverreview

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/longtest"
	"github.com/plangate-gc/plangate-gc/internal/upstream"
)

// The differential test of the entry scopes against upstream's readers
// (SPEC B6, D3/D4; docs/difftest-stores.md). Its environment:
const (
	// envDiffCases runs that many cases in TestStoresDiff (the long mode:
	// 100000), with or without PLANGATE_GC_LONG.
	envDiffCases = "PLANGATE_GC_DIFF_CASES"
	// envDiffSeed is the first seed of TestStoresDiff; with
	// PLANGATE_GC_DIFF_CASES=1 it reproduces one case.
	envDiffSeed = "PLANGATE_GC_DIFF_SEED"
	// envDiffOut is where failing cases' stores are written (default:
	// $TMPDIR/plangate-gc-diff).
	envDiffOut = "PLANGATE_GC_DIFF_OUT"
	// envDiffBin names an absolute river-gc binary to test instead of the
	// one built from this module (another branch's build, a release).
	envDiffBin = "PLANGATE_GC_DIFF_BIN"
)

// diffBin is the river-gc under test.
func diffBin(t *testing.T) string {
	t.Helper()
	if p := os.Getenv(envDiffBin); p != "" {
		if !filepath.IsAbs(p) {
			t.Fatalf("%s=%q: want an absolute path", envDiffBin, p)
		}
		return p
	}
	return buildRiverGC(t)
}

// diffWorkers is how many cases run at once (one Node child each).
const diffWorkers = 2

// TestStoresDiffSmoke runs 200 generated cases (seeds 1–200) in the plain
// `go test`: river-gc --force against upstream's own readers.
func TestStoresDiffSmoke(t *testing.T) {
	t.Parallel()
	dir := upstream.Dir(t)
	runDiff(t, dir, diffBin(t), 1, 200)
}

// TestStoresDiff is the CI size (5,000 cases from seed 1,000,000) and the
// long mode (PLANGATE_GC_DIFF_CASES=100000).
func TestStoresDiff(t *testing.T) {
	t.Parallel()
	n, first := 5000, uint64(1_000_000)
	if s := os.Getenv(envDiffCases); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			t.Fatalf("%s=%q: want a positive number of cases", envDiffCases, s)
		}
		n = v
	} else {
		longtest.Require(t, "the differential test of the entry scopes in its CI size (or set "+envDiffCases+"=N)")
	}
	if s := os.Getenv(envDiffSeed); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("%s=%q: want a seed", envDiffSeed, s)
		}
		first = v
	}
	dir := upstream.Dir(t)
	runDiff(t, dir, diffBin(t), first, n)
}

// runDiff runs n cases from seed first and checks that the batch removed
// something (a river-gc that removes nothing would pass every case).
func runDiff(t *testing.T, dir, bin string, first uint64, n int) {
	t.Helper()
	start := time.Now()
	r := runCases(t, dir, bin, simulatedBase(t), first, n, diffWorkers)
	t.Logf("%d cases (seeds %d–%d) in %v: %d failed; removed %d memory entries (%d were removable by upstream's reading) and %d ledger lines; river-gc %v, upstream's readers %v (summed over workers)",
		r.cases, first, first+uint64(n)-1, time.Since(start).Round(time.Millisecond), r.failed, r.memoryRemoved, r.memoryRemovable, r.ledgerRm,
		r.gcTime.Round(time.Millisecond), r.readTime.Round(time.Millisecond))
	if r.failed > 20 {
		t.Errorf("%d failing cases in all (the first 20 shown)", r.failed)
	}
	if r.cases == n && n >= 100 && (r.memoryRemoved == 0 || r.ledgerRm == 0) {
		t.Errorf("%d cases removed %d memory entries and %d ledger lines: the test exercises no removal", n, r.memoryRemoved, r.ledgerRm)
	}
}

// keepCase writes a failing case's stores, its parameters and its problems
// where a developer can rerun river-gc and upstream's readers on them.
func keepCase(c diffCase, v verdict) (string, error) {
	base := os.Getenv(envDiffOut)
	if base == "" {
		base = filepath.Join(os.TempDir(), "plangate-gc-diff")
	}
	dir := filepath.Join(base, fmt.Sprint("seed-", c.Seed))
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	files := map[string][]byte{".river/memory/index.json": c.Index, "artifacts/evals/results.jsonl": c.Ledger}
	meta, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return "", err
	}
	files["case.json"] = append(meta, '\n')
	files["problems.txt"] = []byte(strings.Join(v.Problems, "\n") + "\n" + reproduce(c, dir) + "\n")
	for name, data := range files {
		if data == nil {
			continue
		}
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// reproduce is the command that reruns one case.
func reproduce(c diffCase, dir string) string {
	return fmt.Sprintf("rerun: %s=1 %s=%d go test ./integrations/river-review/ -run 'TestStoresDiff$' -v\n"+
		"river-gc: river-gc --root %s --scope memory-entries --scope eval-ledger --now %s --retention-days %d --json (TZ=%s for upstream)",
		envDiffCases, envDiffSeed, c.Seed, dir, c.Now, c.RetentionDays, c.TZ)
}
