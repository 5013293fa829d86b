package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// The generated stores: a Riverbed index written as upstream's writer
// writes it (JSON.stringify(index, null, 2) + "\n") and an eval ledger of
// one envelope per line. Tiny entries carry only what the rules read;
// upstream-sized ones are shaped like upstream's own writes
// (createSuppression, evaluate-all --append-ledger), about 0.6 KB (memory)
// and 1.3 KB (ledger). Timestamps are spread over 2025-06-01..2025-11-28,
// so that with --retention-days 60 at bench's --now about two thirds are
// old; every fourth memory entry is live knowledge (a pattern), the rest
// event records. The class "ones" is the non-object shape: an index of
// n elements `1` written compactly (`{"version":"1","entries":[1,1,…]}`,
// 600 KB at 300,000), a ledger of n lines `1`; every entry is kept.

// benchNow is the pinned reference time of every run.
const benchNow = "2025-11-29T00:00:00Z"

var spreadStart = time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)

// stamp is entry i's timestamp of n.
func stamp(i, n int) string {
	span := 180 * 24 * time.Hour
	return spreadStart.Add(time.Duration(int64(span) / int64(n) * int64(i))).Format("2006-01-02T15:04:05.000Z")
}

// writeStore writes the store of kind ("memory" or "ledger") with n
// entries of class ("tiny", "upstream" or "ones") under root, and returns
// its path.
func writeStore(root, kind string, n int, class string) (string, error) {
	big := class == "upstream"
	rel := ".river/memory/index.json"
	if kind == "ledger" {
		rel = "artifacts/evals/results.jsonl"
	}
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", err
	}
	f, err := os.Create(p)
	if err != nil {
		return "", err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	switch {
	case class == "ones" && kind == "ledger":
		for range n {
			w.WriteString("1\n")
		}
	case class == "ones":
		w.WriteString(`{"version":"1","entries":[`)
		for i := range n {
			if i > 0 {
				w.WriteByte(',')
			}
			w.WriteByte('1')
		}
		w.WriteString("]}\n")
	case kind == "ledger":
		for i := range n {
			writeLine(w, i, n, big)
		}
	default:
		w.WriteString("{\n  \"version\": \"1\",\n  \"entries\": [")
		for i := range n {
			if i > 0 {
				w.WriteString(",")
			}
			writeEntry(w, i, n, big)
		}
		w.WriteString("\n  ]\n}\n")
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return "", err
	}
	return p, f.Close()
}

func writeEntry(w *bufio.Writer, i, n int, big bool) {
	typ := "review"
	if i%4 == 0 {
		typ = "pattern"
	}
	ts := stamp(i, n)
	if !big {
		fmt.Fprintf(w, "\n    {\n      \"id\": \"e-%d\",\n      \"type\": %q,\n      \"metadata\": {\n        \"createdAt\": %q\n      }\n    }", i, typ, ts)
		return
	}
	fmt.Fprintf(w, `
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
          "security",
          "skill-%d"
        ],
        "relatedFiles": [
          "src/lib/module-%d.mjs",
          "src/lib/module-%d.test.mjs"
        ]
      },
      "context": {
        "findingHash": "%064x",
        "scope": "file",
        "feedbackType": "false_positive"
      }
    }`, typ[:3], i, typ, i, i%97, ts, typ, i%31, i%97, i%97, uint64(i)*0x9e3779b97f4a7c15)
}

func writeLine(w *bufio.Writer, i, n int, big bool) {
	ts := stamp(i, n)
	if !big {
		fmt.Fprintf(w, "{\"timestamp\":%q}\n", ts)
		return
	}
	fmt.Fprintf(w, `{"version":"1","timestamp":%q,"commit":"%040x","branch":"main","scores":{"precision":0.91,"recall":0.84,"f1":0.87,"falsePositiveRate":0.05,"coverage":0.78,"latencyMs":1234},"results":[`, ts, uint64(i)*0x9e3779b97f4a7c15)
	for k := range 16 {
		if k > 0 {
			w.WriteByte(',')
		}
		fmt.Fprintf(w, `{"name":"fixture-%02d","pass":%v}`, k, (i+k)%7 != 0)
	}
	w.WriteString(`],"status":"pass","description":"nightly evaluation of every skill against the fixture suite"}` + "\n")
}
