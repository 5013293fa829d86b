//go:build linux

package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// reclaimTree writes a tree whose every scope removes something: tmp
// files, eval runs whose removals empty their folders, a memory index in
// layout (upstream's indented form, or one with uneven separators and
// every entry old) and a ledger with blank and CRLF lines.
func reclaimTree(t *testing.T, layout string) string {
	t.Helper()
	var es []string
	for i := range 40 {
		es = append(es, `{"id":"old-`+strings.Repeat("x", i%9)+string(rune('a'+i%26))+string(rune('a'+i/26))+`","type":"review","content":"`+
			strings.Repeat("c", i*3)+`","metadata":{"createdAt":"2000-01-01T00:00:00.000Z"}}`)
	}
	var index string
	switch layout {
	case "upstream":
		for i := range 5 {
			es = append(es, `{"id":"live-`+string(rune('a'+i))+`","type":"decision","content":"d","metadata":{"createdAt":"2000-01-01T00:00:00.000Z"}}`)
		}
		var v any
		if err := json.Unmarshal([]byte(memoryIndex(es...)), &v); err != nil {
			t.Fatal(err)
		}
		b, _ := json.MarshalIndent(v, "", "  ")
		index = string(b) + "\n"
	case "uneven":
		var b strings.Builder
		b.WriteString("{ \"version\":\"1\", \"entries\" :  [\n\t ")
		for i, e := range es {
			if i > 0 {
				b.WriteString(strings.Repeat(" ", i%4) + "," + strings.Repeat("\n", i%3) + " ")
			}
			b.WriteString(e)
		}
		b.WriteString("\r\n\t]  }\n")
		index = b.String()
	}
	var ledger strings.Builder
	for i := range 30 {
		ledger.WriteString(`{"timestamp":"2000-01-01T00:00:00.000Z","n":` + strings.Repeat("1", i%5+1) + "}")
		ledger.WriteString([]string{"\n", "\r\n", "\n\n", "\n  \n"}[i%4])
	}
	files := map[string]string{indexPath: index, ledgerPath: ledger.String()}
	for i, run := range []string{"flat", "runs/old", "runs/older"} {
		files["artifacts/evals/"+run+"/summary.json"] = `{"timestamp":"2000-01-01T00:00:00.000Z"}`
		files["artifacts/evals/"+run+"/sub/deeper/log.txt"] = strings.Repeat("l", 5000*i+17)
	}
	for i := range 4 {
		files[".river/tmp/t"+string(rune('0'+i))] = strings.Repeat("t", 3000*i+1)
	}
	root := writeStores(t, files)
	old := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			err = os.Chtimes(p, old, old)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// treeBytes is the sum of the sizes of the regular files below root.
func treeBytes(t *testing.T, root string) (n int64) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			var fi fs.FileInfo
			if fi, err = d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// reclaimOf runs river-gc on root and returns the reclaimed space as its
// JSON (sizeBytes, allocatedBytes), its text summary's totals line and
// its Markdown summary's, each without the words that name the mode.
func reclaimOf(t *testing.T, root string, args ...string) (jsonSize, jsonAlloc int64, text, md string) {
	t.Helper()
	bin, err := exec.LookPath("river-gc")
	if err != nil {
		t.Fatal(err)
	}
	mdFile := filepath.Join(t.TempDir(), "summary.md")
	base := []string{"--root", root, "--now", "2025-12-01T00:00:00Z", "--lang", "en", "--scope", "all", "--scope", "memory-entries",
		"--scope", "eval-ledger", "--summary-file", mdFile, "--json"}
	cmd := exec.Command(bin, append(base, args...)...)
	cmd.Env = append(os.Environ(), "RIVER_GC_TEST_REAL_ALLOCATION=1") // st_blocks as the disk has it
	var errOut strings.Builder
	cmd.Stderr = &errOut
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("river-gc %v: %v\n%s", args, err, errOut.String())
	}
	var res struct {
		Reclaimed struct{ SizeBytes, AllocatedBytes int64 }
		Errors    []any
	}
	if err := json.Unmarshal(out, &res); err != nil || len(res.Errors) > 0 {
		t.Fatalf("river-gc --json: %v %v\n%s", err, res.Errors, out)
	}
	// --json sends the human summary to stderr; the totals are its first
	// line and the Markdown's bold one.
	mdData, err := os.ReadFile(mdFile)
	if err != nil {
		t.Fatal(err)
	}
	number := regexp.MustCompile(`[0-9.]+ (B|KiB|MiB)`)
	return res.Reclaimed.SizeBytes, res.Reclaimed.AllocatedBytes, number.FindString(errOut.String()), number.FindString(string(mdData))
}

// TestDryRunReclaimsWhatForceDoes (issue 24's A4; decision 241): on an
// unchanged tree the dry-run's reclaimable space is exactly what --force
// then reclaims, in JSON (bytes and allocated bytes), in the summary and
// in the Markdown summary, with entry scopes (a rewrite also frees the
// separators between removed entries, and an index emptied of entries
// its white space) and eval runs whose folders go with them; and --force's
// figure is what the files below the root shrank by.
func TestDryRunReclaimsWhatForceDoes(t *testing.T) {
	t.Parallel()
	for _, layout := range []string{"upstream", "uneven"} {
		t.Run(layout, func(t *testing.T) {
			root := reclaimTree(t, layout)
			before := treeBytes(t, root)
			drySize, dryAlloc, dryText, dryMD := reclaimOf(t, root)
			if treeBytes(t, root) != before {
				t.Fatal("the dry-run changed the tree")
			}
			size, alloc, text, md := reclaimOf(t, root, "--force")
			if freed := before - treeBytes(t, root); size != freed {
				t.Errorf("--force reports %d B reclaimed, the files shrank by %d B", size, freed)
			}
			if drySize != size || dryAlloc != alloc || alloc == 0 {
				t.Errorf("dry-run: %d B (%d allocated), --force: %d B (%d allocated)", drySize, dryAlloc, size, alloc)
			}
			if dryText != text || dryMD != md || text == "" || md == "" {
				t.Errorf("summary: dry-run %q, --force %q; Markdown: dry-run %q, --force %q", dryText, text, dryMD, md)
			}
			if _, err := os.Stat(filepath.Join(root, "artifacts/evals/runs/old")); !os.IsNotExist(err) {
				t.Errorf("the emptied run folder stays: %v", err)
			}
		})
	}
}
