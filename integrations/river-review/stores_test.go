//go:build linux

package riverreview

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/upstream"
)

// simStart is where the simulated year begins; it ends a year later, before
// any real clock this test runs under, and river gc is pinned to its end.
const simStart = "2025-01-01T00:00:00Z"

// simLog is simulate-year.mjs's own record of what it wrote and when.
type simLog struct {
	End    string `json:"end"`
	Memory []struct {
		ID               string `json:"id"`
		Type             string `json:"type"`
		CreatedAt        string `json:"createdAt"`
		Status           string `json:"status"`
		ExpiresAt        string `json:"expiresAt"`
		ContextExpiresAt string `json:"contextExpiresAt"`
		SupersededBy     string `json:"supersededBy"`
		Revokes          string `json:"revokes"`
	} `json:"memory"`
	Ledger []struct {
		Line      int    `json:"line"`
		Timestamp string `json:"timestamp"`
	} `json:"ledger"`
	Runs []struct {
		Path      string `json:"path"`
		Timestamp string `json:"timestamp"`
	} `json:"runs"`
}

// testdata returns the absolute path of a file in testdata/.
func testdata(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// simulate writes a simulated span of upstream's writers into a fresh copy
// of upstream's tree and returns that copy and the simulator's log.
func simulate(t *testing.T, args ...string) (repo string, log simLog) {
	t.Helper()
	return simulateSeed(t, "17", args...)
}

// simulateSeed is simulate with a seed of its own.
func simulateSeed(t *testing.T, seed string, args ...string) (repo string, log simLog) {
	t.Helper()
	repo = upstream.Copy(t)
	logPath := filepath.Join(t.TempDir(), "sim-log.json")
	nodeWith(t, repo, []string{"SIM_NOW=" + simStart, "SIM_SEED=" + seed}, append([]string{"--import", testdata(t, "fakeclock.mjs"),
		testdata(t, "simulate-year.mjs"), "--repo", repo, "--log", logPath}, args...)...)
	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	return repo, log
}

// readStores runs the reader harness at instant now; with a previous
// answer, it asks that answer's questions.
func readStores(t *testing.T, repo, now string, previous []byte) []byte {
	t.Helper()
	args := []string{"--import", testdata(t, "fakeclock.mjs"), testdata(t, "read-stores.mjs"), "--repo", repo}
	if previous != nil {
		space := filepath.Join(t.TempDir(), "previous.json")
		if err := os.WriteFile(space, previous, 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, "--space", space)
	}
	return nodeWith(t, repo, []string{"SIM_NOW=" + now}, args...)
}

// nodeWith is upstream.Node with env added to node's environment (the
// fake clock's SIM_NOW, the simulator's SIM_SEED), not to the test
// process's: the tests run in parallel.
func nodeWith(t *testing.T, dir string, env []string, args ...string) []byte {
	t.Helper()
	out, errOut, code := upstream.NodeEnvExit(t, dir, env, nil, args...)
	if code != 0 {
		t.Fatalf("node %s: exit %d\n%s", strings.Join(args, " "), code, errOut)
	}
	return out
}

// run runs bin and returns stdout, stderr and the exit code.
func run(t *testing.T, bin string, args ...string) (stdout, stderr []byte, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("%s: %v", bin, err)
		}
	}
	return o.Bytes(), e.Bytes(), cmd.ProcessState.ExitCode()
}

// epoch is an RFC 3339 instant in whole seconds (floored).
func epoch(t *testing.T, s string) int64 {
	t.Helper()
	return parse(t, s).Unix()
}

// parse reads an RFC 3339 instant the simulator wrote.
func parse(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("timestamp %q: %v", s, err)
	}
	return v
}

// expected is what a compaction at now under a retention of days must
// remove, computed from the simulator's log by SPEC D1–D4 alone.
type expected struct {
	memory map[string]bool // entry ids
	ledger map[int]bool    // 1-based line numbers
	runs   map[string]bool // paths relative to the repository
}

func expect(t *testing.T, log simLog, now string, days int64) expected {
	t.Helper()
	nowSec := epoch(t, now)
	nowISO := time.Unix(nowSec, 0).UTC().Format("2006-01-02T15:04:05.000Z")
	cutoff := nowSec - days*86400
	revoked := map[string]bool{}
	for _, m := range log.Memory {
		if m.Type == "resurface" && m.Revokes != "" {
			revoked[m.Revokes] = true
		}
	}
	ex := expected{memory: map[string]bool{}, ledger: map[int]bool{}, runs: map[string]bool{}}
	remaining := 0
	for _, m := range log.Memory {
		// Live (SPEC D3, decision 74): knowledge — every type but the
		// event records — whose status is active or absent and which has
		// not expired (expiresAt, else context.expiresAt, not after now);
		// and a suppression that findActiveSuppressions would apply,
		// whatever its status and whatever its date says.
		exp := m.ExpiresAt
		if exp == "" {
			exp = m.ContextExpiresAt
		}
		expired := exp != "" && !parse(t, exp).After(time.Unix(nowSec, 0))
		live := m.Type != "review" && m.Type != "eval_result" && (m.Status == "" || m.Status == "active") && !expired
		if m.Type == "suppression" && !revoked[m.ID] && (m.ContextExpiresAt == "" || m.ContextExpiresAt >= nowISO) {
			live = true
		}
		switch {
		case live:
		case epoch(t, m.CreatedAt) < cutoff:
			ex.memory[m.ID] = true
		default:
			remaining++
		}
	}
	// No kept entry may refer to a removed one.
	for changed := true; changed; {
		changed = false
		keep := func(id string) {
			if ex.memory[id] {
				delete(ex.memory, id)
				changed = true
			}
		}
		for _, m := range log.Memory {
			if ex.memory[m.ID] {
				continue
			}
			if m.SupersededBy != "" {
				keep(m.SupersededBy)
			}
			if m.Type == "resurface" && m.Revokes != "" {
				keep(m.Revokes)
			}
		}
		for _, m := range log.Memory {
			if m.Type == "resurface" && m.Revokes != "" && !ex.memory[m.Revokes] {
				keep(m.ID)
			}
		}
	}
	for i, l := range log.Ledger {
		if i < len(log.Ledger)-2 && epoch(t, l.Timestamp) < cutoff {
			ex.ledger[l.Line] = true
		}
	}
	for _, r := range log.Runs {
		if epoch(t, r.Timestamp) < cutoff {
			ex.runs[r.Path] = true
		}
	}
	// The count policy (1000 per scope) must not bind, or the sets above
	// would be incomplete.
	if remaining >= 1000 || len(log.Ledger)-len(ex.ledger) >= 1000 || len(log.Runs)-len(ex.runs) >= 1000 {
		t.Fatalf("the simulation is too dense for this test: the count policy would remove entries too")
	}
	return ex
}

// storeBytes sums the sizes of the regular files under the stores.
func storeBytes(t *testing.T, repo string) (total int64, files int) {
	t.Helper()
	for _, dir := range []string{".river", "artifacts"} {
		err := filepath.WalkDir(filepath.Join(repo, dir), func(p string, d os.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			total += info.Size()
			files++
			return nil
		})
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	return total, files
}

// readerAnswers is the part of read-stores.mjs's output the test compares.
type readerAnswers struct {
	Space        json.RawMessage     `json:"space"`
	Active       map[string][]string `json:"active"`
	Inactive     map[string][]string `json:"inactive"`
	Suppressions map[string][]string `json:"suppressions"`
	Entries      map[string]string   `json:"entries"`
	Ledger       json.RawMessage     `json:"ledger"`
	Schema       struct {
		Index       []string            `json:"index"`
		Ledger      map[string][]string `json:"ledger"`
		LedgerLines int                 `json:"ledgerLines"`
	} `json:"schema"`
}

func decodeAnswers(t *testing.T, data []byte) readerAnswers {
	t.Helper()
	var a readerAnswers
	if err := json.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	return a
}

// identity is a file's (dev, ino) and content.
type identity struct {
	dev, ino uint64
	data     string
}

func identities(t *testing.T, repo, dir string) map[string]identity {
	t.Helper()
	out := map[string]identity{}
	ents, err := os.ReadDir(filepath.Join(repo, dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		rel := dir + "/" + e.Name()
		var st syscall.Stat_t
		if err := syscall.Lstat(filepath.Join(repo, rel), &st); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(repo, rel))
		if err != nil {
			t.Fatal(err)
		}
		out[rel] = identity{uint64(st.Dev), st.Ino, string(data)}
	}
	return out
}

// ledgerLines splits the ledger into its lines, each with its newline.
func ledgerLines(t *testing.T, repo string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repo, "artifacts/evals/results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
}

// sortedKeys returns the keys of m in order.
func sortedKeys[K string | int](m map[K]bool) []K {
	ks := make([]K, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
