//go:build linux

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/s3test"
)

// TestBucketPlanTwinAgrees (SPEC J4): the twin tree on disk and in a
// bucket gives plans whose removals, scopes, policy and reference time
// are byte for byte the same; each identity is its root's own (inode and
// ctime on disk, ETag in the bucket).
func TestBucketPlanTwinAgrees(t *testing.T) {
	srv := s3test.Start(t)
	name := srv.Bucket(t, false)
	dir := t.TempDir()
	upload(t, srv, name, "org/repo/", dir, twinTree)
	env := bucketEnv(srv)
	plans := t.TempDir()
	var got [2]map[string]string
	for i, root := range []string{dir, "s3://" + name + "/org/repo"} {
		planFile := filepath.Join(plans, []string{"disk.json", "bucket.json"}[i])
		if _, stderr, code := runBucketGC(t, env, append([]string{"--root", root, "--plan-out", planFile}, twinArgs...)...); code != 0 {
			t.Fatalf("%s: --plan-out: exit %d\n%s", root, code, stderr)
		}
		b, err := os.ReadFile(planFile)
		if err != nil {
			t.Fatal(err)
		}
		got[i] = fields(t, b, "removed", "scopes", "retention", "retentionPerScope", "now", "excludes", "identities", "root")
	}
	for _, f := range []string{"removed", "scopes", "retention", "retentionPerScope", "now", "excludes"} {
		if got[0][f] != got[1][f] {
			t.Errorf("%s differs\ndisk:   %s\nbucket: %s", f, got[0][f], got[1][f])
		}
	}
	if !strings.Contains(got[0]["removed"], "artifacts/evals/run-1/log.txt") || !strings.Contains(got[0]["removed"], `"entry"`) {
		t.Errorf("the twin plan misses eval runs or entries: %s", got[0]["removed"])
	}
	if !strings.Contains(got[0]["identities"], `"ino"`) || strings.Contains(got[0]["identities"], `"etag"`) ||
		!strings.Contains(got[1]["identities"], `"etag"`) || strings.Contains(got[1]["identities"], `"ino"`) {
		t.Errorf("identities are not each root's own\ndisk:   %.300s\nbucket: %.300s", got[0]["identities"], got[1]["identities"])
	}
}

// TestBucketApplyDeletesOnlyWhatIsStillPlanned (SPEC J2, J4) on a bucket:
// between plan and apply one planned object is rewritten, one is
// excluded, one store entry's bytes change and a new old object appears;
// the apply deletes exactly the planned items that are still what was
// planned and names why it kept the others; applied again it deletes
// nothing; a tampered plan and a plan for another prefix are refused
// (exit 2) with nothing touched.
func TestBucketApplyDeletesOnlyWhatIsStillPlanned(t *testing.T) {
	srv := s3test.Start(t)
	name := srv.Bucket(t, false)
	env := bucketEnv(srv)
	root := "s3://" + name + "/r"
	upload(t, srv, name, "r/", "", map[string]string{
		".river/memory/a.json":        dated("2024-01-01"),
		".river/memory/changed.json":  dated("2024-01-02"),
		".river/memory/excluded.json": dated("2024-01-04"),
		".river/memory/e.json":        dated("2024-01-05"),
		".river/memory/new.json":      dated("2026-11-30"),
		".river/memory/index.json":    planIndex,
	})
	upload(t, srv, name, "other/", "", map[string]string{".river/memory/a.json": dated("2024-01-01")})
	dir := t.TempDir()
	planFile := filepath.Join(dir, "plan.json")
	if _, stderr, code := runBucketGC(t, env, "--root", root, "--now", planNow, "--scope", "memory", "--scope", "memory-entries", "--plan-out", planFile); code != 0 {
		t.Fatalf("--plan-out: exit %d\n%s", code, stderr)
	}
	good, _ := os.ReadFile(planFile)
	tampered := filepath.Join(dir, "tampered.json")
	os.WriteFile(tampered, bytes.Replace(good, []byte(`"etag": "`), []byte(`"etag": "0`), 1), 0o644)
	for _, c := range []struct{ root, plan, want string }{
		{root, tampered, "was changed after it was written"},
		{"s3://" + name + "/other", planFile, "is a plan for the root " + root},
	} {
		if _, stderr, code := runBucketGC(t, env, "--force", "--root", c.root, "--apply", c.plan); code != 2 || !strings.Contains(string(stderr), c.want) {
			t.Errorf("%s on %s: exit %d, stderr %q, want exit 2 and %q", c.plan, c.root, code, stderr, c.want)
		}
	}
	if keys := keysIn(t, srv, name, ""); len(keys) != 7 {
		t.Fatalf("a refused plan touched the bucket: %q", keys)
	}
	upload(t, srv, name, "r/", "", map[string]string{
		".river/memory/changed.json": dated("2024-01-02") + " ",
		".river/memory/late.json":    dated("2020-01-01"),
		".river/memory/index.json":   strings.Replace(planIndex, `"title":"t1"`, `"title":"u1"`, 1),
	})
	apply := []string{"--root", root, "--force", "--json", "--quiet", "--apply", planFile, "--exclude", ".river/memory/excluded.json"}
	out, stderr, code := runBucketGC(t, env, apply...)
	rec := readPlanRecord(t, out)
	if code != 1 {
		t.Fatalf("apply: exit %d, want 1\n%s\n%s", code, out, stderr)
	}
	if got, want := rec.removed(), []string{".river/memory/a.json", ".river/memory/e.json", ".river/memory/index.json#r3"}; !slices.Equal(got, want) {
		t.Errorf("removed %v, want %v", got, want)
	}
	for path, why := range map[string]string{
		".river/memory/changed.json":  "changed since planned: size, ", // and etag; mtime when a second ticked over
		".river/memory/excluded.json": "it is now excluded by --exclude",
		".river/memory/index.json#r1": "changed since planned: bytes",
	} {
		if got := rec.errorsOf(path); !strings.Contains(got, "planned, not deleted: "+why) || (strings.HasSuffix(path, "changed.json") && !strings.HasSuffix(got, "etag")) {
			t.Errorf("%s: errors %q, want %q", path, got, why)
		}
	}
	if keys := keysIn(t, srv, name, "r/.river/memory/"); !slices.Equal(keys, []string{"changed.json", "excluded.json", "index.json", "late.json", "new.json"}) {
		t.Errorf("left in the bucket: %q", keys)
	}
	if idx := objectBytes(t, srv, name, "r/.river/memory/index.json"); !bytes.Contains(idx, []byte(`"id":"r1"`)) || bytes.Contains(idx, []byte(`"id":"r3"`)) {
		t.Errorf("index.json: r1 (changed) must stay, r3 (planned) must go:\n%s", idx)
	}
	out, _, _ = runBucketGC(t, env, apply...)
	if rec = readPlanRecord(t, out); len(rec.Removed) != 0 || !strings.Contains(rec.warning("plan-gone"), "were gone already") {
		t.Errorf("second apply: removed %v, warning %q", rec.removed(), rec.warning("plan-gone"))
	}
}
