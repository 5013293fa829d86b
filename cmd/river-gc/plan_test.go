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
)

// planNow is the --now of the plan tests: every file dated 2024 is past
// the 90-day limit, one dated 2026-11 is not.
const planNow = "2026-12-01T00:00:00Z"

// gcRun runs the river-gc binary and returns stdout, stderr and the exit
// code.
func gcRun(t *testing.T, args ...string) ([]byte, []byte, int) {
	t.Helper()
	return runBucketGC(t, os.Environ(), args...)
}

// writeTree writes files (root-relative path → content) below root.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, body := range files {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// dated is a memory file's content judged by the metadata timestamp ts.
func dated(ts string) string { return `{"timestamp":"` + ts + `T00:00:00Z"}` }

// planRecord is what the plan tests read of a JSON record.
type planRecord struct {
	Removed  []struct{ Path string }
	Errors   []struct{ Path, Message string }
	Warnings []struct{ Kind, Path, Message string }
}

func readPlanRecord(t *testing.T, b []byte) planRecord {
	t.Helper()
	var r planRecord
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("not a JSON record: %v\n%.600s", err, b)
	}
	return r
}

func (r planRecord) removed() []string {
	var ps []string
	for _, x := range r.Removed {
		ps = append(ps, x.Path)
	}
	return ps
}

func (r planRecord) errorsOf(path string) string {
	var ms []string
	for _, e := range r.Errors {
		if e.Path == path {
			ms = append(ms, e.Message)
		}
	}
	return strings.Join(ms, "; ")
}

func (r planRecord) warning(kind string) string {
	for _, w := range r.Warnings {
		if w.Kind == kind {
			return w.Message
		}
	}
	return ""
}

// present reports which of rels exist below root.
func present(root string, rels ...string) []string {
	var there []string
	for _, rel := range rels {
		if _, err := os.Lstat(filepath.Join(root, rel)); err == nil {
			there = append(there, rel)
		}
	}
	return there
}

// git runs git in dir.
func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// TestPlanRemovedIsTheDryRunsRemoved (SPEC J1): the plan's removed[] is
// byte for byte the dry-run record's, entries of a store and a name that
// is not UTF-8 included, and every removal has an identity.
func TestPlanRemovedIsTheDryRunsRemoved(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".river/memory/a.json":          dated("2024-01-01"),
		".river/memory/b \"q\".json":    dated("2024-01-02"),
		".river/memory/tab\tné.json":    dated("2024-01-03"),
		".river/memory/new.json":        dated("2026-11-30"),
		".river/memory/index.json":      twinIndex,
		"artifacts/evals/results.jsonl": twinLedger,
		"artifacts/review-old.md":       "# old",
	})
	planFile := filepath.Join(t.TempDir(), "plan.json")
	args := []string{"--root", root, "--now", planNow, "--scope", "all", "--scope", "memory-entries", "--scope", "eval-ledger", "--keep-within", "1h"}
	dry, stderr, code := gcRun(t, append([]string{"--json"}, args...)...)
	if code != 0 {
		t.Fatalf("dry-run: exit %d\n%s", code, stderr)
	}
	_, stderr, code = gcRun(t, append([]string{"--plan-out", planFile}, args...)...)
	if code != 0 || !bytes.Contains(stderr, []byte("plan written to "+planFile)) {
		t.Fatalf("--plan-out: exit %d\n%s", code, stderr)
	}
	p, err := os.ReadFile(planFile)
	if err != nil {
		t.Fatal(err)
	}
	d, pl := fields(t, dry, "removed"), fields(t, p, "removed", "identities", "root", "digest", "planVersion", "now", "keepWithinSeconds")
	if d["removed"] != pl["removed"] || !strings.Contains(d["removed"], `"entry"`) || !strings.Contains(d["removed"], `tab\tné`) {
		t.Errorf("removed[] differs or misses the cases\ndry-run: %s\nplan:    %s", d["removed"], pl["removed"])
	}
	raw := []byte(d["removed"])
	if i := bytes.Index(p, raw); i < 0 || !bytes.Contains(dry, raw) {
		t.Errorf("the plan's removed[] is not the dry-run's bytes in place")
	}
	var ids []map[string]any
	if err := json.Unmarshal([]byte(pl["identities"]), &ids); err != nil {
		t.Fatal(err)
	}
	var rm []map[string]any
	json.Unmarshal([]byte(d["removed"]), &rm)
	if len(ids) != len(rm) || len(rm) < 5 {
		t.Fatalf("%d identities for %d removals", len(ids), len(rm))
	}
	for i, id := range ids {
		_, entry := rm[i]["entry"]
		if id["path"] != rm[i]["path"] || (entry && id["sha256"] == nil) || (!entry && (id["ino"] == nil || id["ctimeNs"] == nil || id["dev"] == nil)) {
			t.Errorf("identity %d: %v for %v", i, id, rm[i])
		}
	}
	if pl["root"] != `"`+root+`"` || pl["planVersion"] != `"1"` || !strings.HasPrefix(pl["digest"], `"sha256:`) || pl["now"] != `"`+planNow+`"` || pl["keepWithinSeconds"] != "3600" {
		t.Errorf("plan header: %v", pl)
	}
}

// TestApplyDeletesOnlyWhatIsStillPlanned (SPEC J2, J4): between plan and
// apply one planned file changes, one is committed to git, one is
// excluded, one store entry's bytes change and a new old file appears:
// the apply deletes exactly the planned items that are still what was
// planned, names why it kept each of the others, keeps the new file;
// applied again it deletes nothing.
func TestApplyDeletesOnlyWhatIsStillPlanned(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	git(t, root, "init", "-q")
	writeTree(t, root, map[string]string{
		".river/memory/a.json":        dated("2024-01-01"),
		".river/memory/changed.json":  dated("2024-01-02"),
		".river/memory/tracked.json":  dated("2024-01-03"),
		".river/memory/excluded.json": dated("2024-01-04"),
		".river/memory/e.json":        dated("2024-01-05"),
		".river/memory/new.json":      dated("2026-11-30"),
		".river/memory/index.json":    planIndex,
	})
	planFile := filepath.Join(t.TempDir(), "plan.json")
	_, stderr, code := gcRun(t, "--root", root, "--now", planNow, "--scope", "memory", "--scope", "memory-entries", "--plan-out", planFile)
	if code != 0 {
		t.Fatalf("--plan-out: exit %d\n%s", code, stderr)
	}
	// Between plan and apply.
	writeTree(t, root, map[string]string{
		".river/memory/changed.json": dated("2024-01-02") + " ",
		".river/memory/late.json":    dated("2020-01-01"),
		".river/memory/index.json":   strings.Replace(planIndex, `"title":"t1"`, `"title":"u1"`, 1),
	})
	git(t, root, "add", ".river/memory/tracked.json")
	git(t, root, "commit", "-qm", "keep it")
	apply := []string{"--root", root, "--force", "--json", "--quiet", "--apply", planFile, "--exclude", ".river/memory/excluded.json"}
	out, stderr, code := gcRun(t, apply...)
	rec := readPlanRecord(t, out)
	if code != 1 {
		t.Fatalf("apply: exit %d, want 1 (planned items kept)\n%s\n%s", code, out, stderr)
	}
	if got, want := rec.removed(), []string{".river/memory/a.json", ".river/memory/e.json", ".river/memory/index.json#r3"}; !slices.Equal(got, want) {
		t.Errorf("removed %v, want %v", got, want)
	}
	for path, why := range map[string]string{
		".river/memory/changed.json":  "changed since planned: size, mtime, ctime",
		".river/memory/tracked.json":  "it is now tracked in git",
		".river/memory/excluded.json": "it is now excluded by --exclude",
		".river/memory/index.json#r1": "changed since planned: bytes",
	} {
		if got := rec.errorsOf(path); !strings.Contains(got, "planned, not deleted: "+why) {
			t.Errorf("%s: errors %q, want %q", path, got, why)
		}
	}
	if got := present(root, ".river/memory/a.json", ".river/memory/e.json", ".river/memory/late.json", ".river/memory/changed.json",
		".river/memory/tracked.json", ".river/memory/excluded.json", ".river/memory/new.json"); !slices.Equal(got, []string{
		".river/memory/late.json", ".river/memory/changed.json", ".river/memory/tracked.json", ".river/memory/excluded.json", ".river/memory/new.json"}) {
		t.Errorf("left on disk: %v", got)
	}
	if w := rec.warning("not-planned"); !strings.Contains(w, ".river/memory/late.json") {
		t.Errorf("the new old file is not named as kept, not planned: %q", w)
	}
	idx, _ := os.ReadFile(filepath.Join(root, ".river/memory/index.json"))
	if !bytes.Contains(idx, []byte(`"id":"r1"`)) || bytes.Contains(idx, []byte(`"id":"r3"`)) {
		t.Errorf("index.json: r1 (changed) must stay, r3 (planned) must go:\n%s", idx)
	}
	// Applied again: nothing more is deleted, and the record says which
	// planned items are gone already.
	if got, want := fields(t, out, "plan")["plan"], `{
    "digest": `+fields(t, mustRead(t, planFile), "digest")["digest"]+`,
    "items": 7
  }`; got != want {
		t.Errorf("the record's plan is %s, want %s", got, want)
	}
	out, _, _ = gcRun(t, apply...)
	rec = readPlanRecord(t, out)
	if len(rec.Removed) != 0 || !strings.Contains(rec.warning("plan-gone"), "were gone already") {
		t.Errorf("second apply: removed %v, warning %q", rec.removed(), rec.warning("plan-gone"))
	}
}

// planIndex is a memory store with two removable entries and a live one.
const planIndex = `{"version":"1","entries":[
{"id":"r1","type":"review","title":"t1","content":"c","metadata":{"createdAt":"2024-01-01T00:00:00Z"}},
{"id":"r2","type":"review","title":"t","content":"c","metadata":{"createdAt":"2026-11-29T00:00:00Z"}},
{"id":"r3","type":"review","title":"t3","content":"c","metadata":{"createdAt":"2024-01-02T00:00:00Z"}}]}
`

// TestApplyTwiceSaysSo (SPEC J4): a plan applied in full, applied again,
// deletes nothing, exits 0, and says in a line of its own that it was
// applied before.
func TestApplyTwiceSaysSo(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{".river/memory/a.json": dated("2024-01-01"), ".river/memory/b.json": dated("2024-01-02")})
	planFile := filepath.Join(t.TempDir(), "plan.json")
	if _, stderr, code := gcRun(t, "--root", root, "--now", planNow, "--plan-out", planFile); code != 0 {
		t.Fatalf("--plan-out: exit %d\n%s", code, stderr)
	}
	out, stderr, code := gcRun(t, "--root", root, "--force", "--apply", planFile)
	if code != 0 || len(present(root, ".river/memory/a.json", ".river/memory/b.json")) != 0 {
		t.Fatalf("first apply: exit %d\n%s%s", code, out, stderr)
	}
	out, stderr, code = gcRun(t, "--root", root, "--force", "--apply", planFile)
	digest := fields(t, mustRead(t, planFile), "digest")["digest"]
	if !bytes.Contains(out, []byte("applying the plan "+strings.Trim(digest, `"`)+" (2 items)")) {
		t.Errorf("the summary does not name the plan %s:\n%s", digest, out)
	}
	if code != 0 || !bytes.Contains(out, []byte("warning: all 2 items of the plan are gone already: this plan was applied before; nothing was deleted")) {
		t.Errorf("second apply: exit %d\n%s%s", code, out, stderr)
	}
}

// TestApplyRefusesABadPlan (SPEC J2): a plan changed by a byte, one for
// another root, one of another format version, and policy flags beside
// --apply are config errors (exit 2) that touch nothing; --plan-out with
// --force is one too.
func TestApplyRefusesABadPlan(t *testing.T) {
	t.Parallel()
	root, other := t.TempDir(), t.TempDir()
	tree := map[string]string{".river/memory/a.json": dated("2024-01-01"), ".river/memory/b.json": dated("2024-01-02")}
	writeTree(t, root, tree)
	writeTree(t, other, tree)
	dir := t.TempDir()
	planFile := filepath.Join(dir, "plan.json")
	if _, stderr, code := gcRun(t, "--root", root, "--now", planNow, "--plan-out", planFile); code != 0 {
		t.Fatalf("--plan-out: exit %d\n%s", code, stderr)
	}
	good, _ := os.ReadFile(planFile)
	variant := func(name, from, to string) string {
		t.Helper()
		if !bytes.Contains(good, []byte(from)) {
			t.Fatalf("%s: the plan holds no %q", name, from)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, bytes.Replace(good, []byte(from), []byte(to), 1), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"tampered path", []string{"--root", root, "--apply", variant("path.json", `"path": ".river/memory/b.json"`, `"path": ".river/memory/c.json"`)}, "was changed after it was written"},
		{"tampered identity", []string{"--root", root, "--apply", variant("ino.json", `"ino": `, `"ino": 1`)}, "was changed after it was written"},
		{"tampered policy", []string{"--root", root, "--apply", variant("days.json", `"days": 90`, `"days": 9`)}, "was changed after it was written"},
		{"another layout", []string{"--root", root, "--apply", variant("layout.json", "{\n  \"planVersion\"", "{\"planVersion\"")}, "was changed after it was written"},
		{"another root", []string{"--root", other, "--apply", planFile}, "is a plan for the root " + root + ", not for " + other},
		{"another version", []string{"--root", root, "--apply", variant("v2.json", `"planVersion": "1"`, `"planVersion": "2"`)}, "is a plan of format version 2"},
		{"not a plan", []string{"--root", root, "--apply", variant("junk.json", `{`, `[`)}, "is not a river gc plan"},
		{"no such plan", []string{"--root", root, "--apply", filepath.Join(dir, "none.json")}, "cannot read the plan"},
		{"policy flag", []string{"--root", root, "--apply", planFile, "--retention-days", "1"}, "--retention-days cannot be used with --apply"},
		{"now flag", []string{"--root", root, "--apply", planFile, "--now", planNow}, "--now cannot be used with --apply"},
		{"scope flag", []string{"--root", root, "--apply", planFile, "--scope", "memory"}, "--scope cannot be used with --apply"},
		{"keep-within flag", []string{"--root", root, "--apply", planFile, "--keep-within", "24h"}, "--keep-within cannot be used with --apply"},
		{"plan-out with force", []string{"--root", root, "--plan-out", filepath.Join(dir, "p2.json")}, "--plan-out writes a plan and deletes nothing"},
		{"plan-out over a directory", []string{"--root", root, "--plan-out", dir}, "--plan-out " + dir},
	} {
		args := append([]string{"--force"}, c.args...)
		if c.name == "plan-out over a directory" {
			args = c.args
		}
		_, stderr, code := gcRun(t, args...)
		if code != 2 || !strings.Contains(string(stderr), c.want) {
			t.Errorf("%s: exit %d, stderr %q, want exit 2 and %q", c.name, code, stderr, c.want)
		}
	}
	for _, r := range []string{root, other} {
		if got := present(r, ".river/memory/a.json", ".river/memory/b.json"); len(got) != 2 {
			t.Errorf("%s: a refused plan touched the tree: %v left", r, got)
		}
	}
}

// TestApplyPreviewWithoutForce: --apply without --force is a dry-run of
// the apply: what it would delete now, nothing deleted.
func TestApplyPreviewWithoutForce(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{".river/memory/a.json": dated("2024-01-01")})
	planFile := filepath.Join(t.TempDir(), "plan.json")
	if _, stderr, code := gcRun(t, "--root", root, "--now", planNow, "--plan-out", planFile); code != 0 {
		t.Fatalf("--plan-out: exit %d\n%s", code, stderr)
	}
	writeTree(t, root, map[string]string{".river/memory/late.json": dated("2020-01-01")})
	out, stderr, code := gcRun(t, "--root", root, "--json", "--apply", planFile)
	rec := readPlanRecord(t, out)
	if code != 0 || !slices.Equal(rec.removed(), []string{".river/memory/a.json"}) || len(present(root, ".river/memory/a.json")) != 1 {
		t.Errorf("preview: exit %d, removed %v\n%s", code, rec.removed(), stderr)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
