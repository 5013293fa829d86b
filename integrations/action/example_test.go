package action

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/plangate-gc/plangate-gc/internal/pinned"
)

// riverReviewTree writes, below a new directory, what a year of River
// Review's writers leaves (relative to now): a memory index of old review
// records and live decisions, an eval ledger of weekly lines, saved runs
// and temp files. It returns the directory.
func riverReviewTree(t *testing.T, now time.Time) string {
	t.Helper()
	dir := t.TempDir()
	write := func(rel string, data []byte, age time.Duration) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, now.Add(-age), now.Add(-age)); err != nil {
			t.Fatal(err)
		}
	}
	day := 24 * time.Hour
	stamp := func(d int) string { return now.Add(-time.Duration(d) * day).Format("2006-01-02T15:04:05.000Z") }
	type meta struct {
		CreatedAt string `json:"createdAt"`
		Author    string `json:"author"`
	}
	type entry struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Content  string `json:"content"`
		Metadata meta   `json:"metadata"`
	}
	var entries []entry
	for i := range 60 {
		entries = append(entries, entry{fmt.Sprintf("review-%03d", i), "review", strings.Repeat("finding ", 40), meta{stamp(i * 6), "river"}})
	}
	entries = append(entries, entry{"adr-001", "adr", "keep the ledger", meta{stamp(400), "team"}})
	index, err := json.MarshalIndent(map[string]any{"version": "1", "entries": entries}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	write(".river/memory/index.json", append(index, '\n'), 0)
	var ledger strings.Builder
	for w := 52; w >= 0; w-- {
		fmt.Fprintf(&ledger, `{"version":"1","timestamp":%q,"commit":"%040d","branch":"main","scores":{"pass":1},"results":[],"status":"pass"}`+"\n", stamp(7*w), w)
	}
	write("artifacts/evals/results.jsonl", []byte(ledger.String()), 0)
	for i := range 20 {
		d := i * 18
		write(fmt.Sprintf(".river/runs/%s-%04x.json", now.Add(-time.Duration(d)*day).Format("20060102T150405"), i),
			fmt.Appendf(nil, `{"timestamp":%q,"findings":[%q]}`, stamp(d), strings.Repeat("y", 200)), time.Duration(d)*day)
	}
	for h := range 48 {
		write(fmt.Sprintf(".river/tmp/step-%02d.log", h), []byte("scratch\n"), time.Duration(h)*6*time.Hour)
	}
	return dir
}

// exampleInputs are the inputs example.yml gives the action.
func exampleInputs(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Jobs map[string]struct {
			Steps []struct {
				Uses string            `yaml:"uses"`
				With map[string]string `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(b, &wf); err != nil {
		t.Fatal(err)
	}
	for _, j := range wf.Jobs {
		for _, s := range j.Steps {
			if strings.HasPrefix(s.Uses, "plangate-gc/plangate-gc@") {
				return s.With
			}
		}
	}
	t.Fatalf("%s has no step using the action", example)
	return nil
}

// TestExampleReclaimsOnRiverReviewLayout emulates example.yml as pasted
// (at a commit, no release; only now pinned) on a year of River Review's
// stores: it removes old saved runs, memory entries and ledger lines and
// keeps the live decision; the default scopes, on the same tree, reclaim
// only the temp files. The emulated Actions cache holds river-gc
// (prebuilt).
func TestExampleReclaimsOnRiverReviewLayout(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile(filepath.Join(pinned.Root(t), "cmd/river-gc/run.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), `name:"keep-within"`) {
		t.Skip("river-gc has no --keep-within yet, which example.yml's keep-within: 24h passes")
	}
	pathEnv, _ := goLogger(t)
	now := time.Date(2025, 11, 29, 0, 0, 0, 0, time.UTC)
	const ref = "0123456789abcdef0123456789abcdef01234567"
	cache := prebuilt(t, ref)
	reclaimed := func(with map[string]string) (map[string]int, string) {
		t.Helper()
		with["now"] = now.Format(time.RFC3339)
		e := &emulation{action: readAction(t), ref: ref, outputs: map[string]map[string]string{}, with: with, cache: cache}
		out, _, code := e.run(t, riverReviewTree(t, now), pathEnv)
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, out)
		}
		var res struct {
			Removed []struct {
				Path string `json:"path"`
			} `json:"removed"`
		}
		if err := json.Unmarshal([]byte(readFile(t, e.outputs["run"]["result-file"])), &res); err != nil {
			t.Fatal(err)
		}
		by := map[string]int{}
		for _, r := range res.Removed {
			switch p := r.Path; {
			case p == ".river/memory/index.json#adr-001":
				t.Errorf("the live decision was removed")
			case strings.HasPrefix(p, ".river/memory/index.json#"):
				by["memory entries"]++
			case strings.HasPrefix(p, "artifacts/evals/results.jsonl#"):
				by["ledger lines"]++
			case strings.HasPrefix(p, ".river/runs/"):
				by["saved runs"]++
			case strings.HasPrefix(p, ".river/tmp/"):
				by["temp files"]++
			default:
				t.Errorf("removed %s", p)
			}
		}
		return by, out
	}
	// The policy is 90 days, tmp=7: review records past day 90 (day 96
	// on: 44 of 60), ledger lines past 13 weeks (40 of 53), saved runs
	// past day 90 (14 of 20), temp files past 168 hours (19 of 48).
	want := map[string]int{"memory entries": 44, "ledger lines": 40, "saved runs": 14, "temp files": 19}
	if got, out := reclaimed(exampleInputs(t)); !maps.Equal(got, want) {
		t.Errorf("example.yml removed %v, want %v\n%s", got, want, out)
	}
	defaults := exampleInputs(t)
	defaults["scopes"] = ""
	if got, out := reclaimed(defaults); !maps.Equal(got, map[string]int{"temp files": 19}) {
		t.Errorf("the default scopes removed %v, want the temp files only\n%s", got, out)
	}
}
