//go:build linux

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/report"
)

// hintNow is the --now of the store hint's tests: a year of writes
// before it (storeStamp), so that about three quarters are past 90 days.
const hintNow = "2025-12-01T00:00:00Z"

// storeStamp is the timestamp of entry i of n, spread over the year
// before hintNow.
func storeStamp(i, n int) string {
	start := time.Date(2024, 12, 1, 0, 0, 0, 0, time.UTC)
	return start.Add(time.Duration(int64(365*24*time.Hour) / int64(n) * int64(i))).Format("2006-01-02T15:04:05.000Z")
}

// writeUpstreamIndex writes a memory index of n entries as upstream's
// writer writes it (JSON.stringify(index, null, 2) + "\n"), each shaped
// like upstream's own records (about 0.6 KB); every fourth is live
// knowledge (a pattern), the rest event records.
func writeUpstreamIndex(w io.Writer, n int) {
	b := bufio.NewWriter(w)
	b.WriteString("{\n  \"version\": \"1\",\n  \"entries\": [")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		typ := "review"
		if i%4 == 0 {
			typ = "pattern"
		}
		fmt.Fprintf(b, `
    {
      "id": "%s-%08x",
      "type": %q,
      "content": "Finding %08x in src/lib/module-%d.mjs: the reviewer flagged an unchecked return value; rationale recorded for later runs of the same skill.",
      "metadata": {
        "createdAt": %q,
        "author": "river-review",
        "phase": "midstream",
        "tags": [
          %q,
          "security"
        ],
        "relatedFiles": [
          "src/lib/module-%d.mjs"
        ]
      },
      "context": {
        "findingHash": "%064x",
        "scope": "file",
        "feedbackType": "false_positive"
      }
    }`, typ[:3], i, typ, i, i%97, storeStamp(i, n), typ, i%97, uint64(i)*0x9e3779b97f4a7c15)
	}
	b.WriteString("\n  ]\n}\n")
	b.Flush()
}

// writeUpstreamLedger writes an eval ledger of n lines shaped like
// evaluate-all --append-ledger's (about 1.3 KB each).
func writeUpstreamLedger(w io.Writer, n int) {
	b := bufio.NewWriter(w)
	for i := range n {
		fmt.Fprintf(b, `{"version":"1","timestamp":%q,"commit":"%040x","branch":"main","scores":{"precision":0.91,"recall":0.84,"f1":0.87},"results":[`, storeStamp(i, n), uint64(i)*0x9e3779b97f4a7c15)
		for k := range 16 {
			if k > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(b, `{"name":"fixture-%02d","pass":%v,"note":"nightly evaluation of every skill against the fixture suite"}`, k, (i+k)%7 != 0)
		}
		b.WriteString(`],"status":"pass"}` + "\n")
	}
	b.Flush()
}

// storeTree writes, under root, a multi-megabyte memory index and ledger
// (more than the old 1 MiB hint bound each), and returns their sizes.
func storeTree(t *testing.T, root string) (index, ledger int64) {
	t.Helper()
	for _, s := range []struct {
		rel   string
		write func(io.Writer, int)
		n     int
		size  *int64
	}{{".river/memory/index.json", writeUpstreamIndex, 4000, &index}, {"artifacts/evals/results.jsonl", writeUpstreamLedger, 1500, &ledger}} {
		p := filepath.Join(root, s.rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		s.write(f, s.n)
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if *s.size = st.Size(); st.Size() < 2<<20 {
			t.Fatalf("%s: %d bytes, want a multi-megabyte store", s.rel, st.Size())
		}
	}
	return index, ledger
}

// judgedStores runs river-gc with the store scopes selected (a dry-run)
// and returns what its JSON says each would reclaim: the removals and
// the bytes its rewrite frees, worded as the hint words them.
func judgedStores(t *testing.T, run func(args ...string) (string, error)) map[string]string {
	t.Helper()
	out, err := run("--scope", "memory-entries", "--scope", "eval-ledger", "--json", "--quiet")
	if err != nil {
		t.Fatalf("judging the stores: %v\n%s", err, out)
	}
	var res struct {
		Removed []struct {
			Path string `json:"path"`
		} `json:"removed"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, r := range res.Removed {
		if strings.HasPrefix(r.Path, ".river/memory/index.json#") {
			count["memory-entries"]++
		} else {
			count["eval-ledger"]++
		}
	}
	human, err := run("--scope", "memory-entries", "--scope", "eval-ledger")
	if err != nil {
		t.Fatalf("judging the stores: %v\n%s", err, human)
	}
	m := regexp.MustCompile(`(?m)^Total reclaimable space: ([^,]+), `).FindStringSubmatch(human)
	if m == nil {
		t.Fatalf("no total:\n%s", human)
	}
	return map[string]string{
		"memory-entries": fmt.Sprintf("scope memory-entries: %%s (%d memory entries)", count["memory-entries"]),
		"eval-ledger":    fmt.Sprintf("scope eval-ledger: %%s (%d ledger lines)", count["eval-ledger"]),
		"total":          m[1],
	}
}

// TestStoreHintTellsTheWholeTruth (SPEC B9): where the default scopes
// leave the stores alone, the hint names every store's reclaimable
// bytes and entries however large the store (two multi-megabyte stores
// here, as a year of upstream's writers leaves them), on a dry-run and
// after --force alike; its numbers are the ones selecting the scopes
// reports, and "too large to judge" is never said.
func TestStoreHintTellsTheWholeTruth(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	root := t.TempDir()
	storeTree(t, root)
	run := func(args ...string) (string, error) {
		out, err := exec.Command(bin, append([]string{"--root", root, "--now", hintNow, "--lang", "en"}, args...)...).Output()
		return string(out), err
	}
	want := judgedStores(t, run)
	for _, mode := range [][]string{nil, {"--force"}} {
		out, err := run(mode...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", mode, err, out)
		}
		if strings.Contains(out, "too large") {
			t.Errorf("%v: the hint calls a store too large:\n%s", mode, out)
		}
		if !strings.Contains(out, "add --scope runs") && !strings.Contains(out, "add --scope memory-entries --scope eval-ledger to reach it") {
			t.Errorf("%v: the hint names the wrong flags:\n%s", mode, out)
		}
		var sum uint64
		for _, scope := range []string{"memory-entries", "eval-ledger"} {
			line := regexp.MustCompile(`(?m)^  scope ` + scope + `: (.+) \(\d+ [a-z ]+\)$`).FindStringSubmatch(out)
			if line == nil || !strings.Contains(out, fmt.Sprintf(want[scope], line[1])) {
				t.Fatalf("%v: no hint line like %q:\n%s", mode, want[scope], out)
			}
			sum += parseHuman(t, line[1])
		}
		// The two lines add up to what selecting both reclaims (to the
		// rounding of their human sizes).
		total := parseHuman(t, want["total"])
		if d := int64(sum) - int64(total); d > int64(total)/100 || -d > int64(total)/100 {
			t.Errorf("%v: the hint's bytes add up to %d, selecting the scopes reclaims %d (%s)", mode, sum, total, want["total"])
		}
	}
	if _, err := os.Stat(filepath.Join(root, ".river/memory/index.json")); err != nil {
		t.Errorf("the hint touched the store: %v", err)
	}
}

// parseHuman reads a size as report.HumanBytes writes it ("4.3 MiB").
func parseHuman(t *testing.T, s string) uint64 {
	t.Helper()
	num, unit, _ := strings.Cut(s, " ")
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		t.Fatalf("size %q: %v", s, err)
	}
	for i, u := range []string{"B", "KiB", "MiB", "GiB"} {
		if u == unit {
			for range i {
				f *= 1024
			}
			if got := report.HumanBytes(strconv.FormatUint(uint64(f), 10)); got != s && i == 0 {
				t.Fatalf("size %q reads back as %q", s, got)
			}
			return uint64(f)
		}
	}
	t.Fatalf("size %q: unknown unit", s)
	return 0
}
