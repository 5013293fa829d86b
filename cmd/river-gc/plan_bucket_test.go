//go:build linux

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/internal/s3test"
)

// TestBucketPlanTwinAgrees (SPEC J4): the twin tree on disk and in a
// bucket gives plans whose removals, scopes, policy and reference time
// are byte for byte the same; each identity is its root's own (inode and
// ctime on disk, ETag in the bucket).
func TestBucketPlanTwinAgrees(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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

// TestBucketSigkillDuringApplyLeavesAnExactRecord (SPEC J2) on a bucket:
// an apply killed with SIGKILL once its first deletions are visible has
// deleted only planned objects, and exactly the objects gone are named —
// by its own record, else by the next apply's interrupted[], which then
// finishes the plan and leaves the objects the plan does not name.
func TestBucketSigkillDuringApplyLeavesAnExactRecord(t *testing.T) {
	t.Parallel()
	srv := s3test.Start(t)
	name := srv.Bucket(t, false)
	env := bucketEnv(srv)
	root := "s3://" + name + "/r"
	const n = 2000
	tree := map[string]string{}
	for i := range n {
		tree[fmt.Sprintf(".river/tmp/d%d/f%04d", i%4, i)] = "x"
	}
	upload(t, srv, name, "r/", "", tree)
	dir := t.TempDir()
	planFile := filepath.Join(dir, "plan.json")
	if _, stderr, code := runBucketGC(t, env, "--root", root, "--now", future, "--max-entries", "1000000", "--quiet", "--plan-out", planFile); code != 0 {
		t.Fatalf("--plan-out: exit %d\n%s", code, stderr)
	}
	unplanned := []string{".river/tmp/d0/late-1", ".river/tmp/d3/late-2"}
	upload(t, srv, name, "r/", "", map[string]string{unplanned[0]: "x", unplanned[1]: "x"})
	result := filepath.Join(dir, "gc.json")
	cmd := exec.Command(buildBinary(t), "--root", root, "--force", "--json", "--quiet", "--apply", planFile, "--output-file", result)
	cmd.Env = env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }() //nolint:errcheck // killed on purpose
	// The event: the first deletions are visible in a listing (or the run
	// ended); then the kill.
	for done := false; !done; {
		select {
		case <-exited:
			done = true
		default:
			done = len(allKeys(t, srv, name, "r/")) < n+len(unplanned)
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	<-exited
	there := map[string]bool{}
	for _, k := range allKeys(t, srv, name, "r/") {
		there[k] = true
	}
	for _, k := range unplanned {
		if !there[k] {
			t.Fatalf("%s is not in the plan and is gone", k)
		}
	}
	var gone []string
	for k := range tree {
		if !there[k] {
			gone = append(gone, k)
		}
	}
	named := map[string]bool{}
	if b, err := os.ReadFile(result); err == nil {
		for _, r := range readRecord(t, b).Removed {
			named[r.Path] = true
		}
	}
	// The killed run's lease runs out in its time; the test makes it run
	// out now (the same holder, an expiry in the past), so the next apply
	// takes the lock over and knows that run is over.
	lock := "r/" + gc.LockKey
	var lease map[string]any
	if err := json.Unmarshal(objectBytes(t, srv, name, lock), &lease); err != nil || lease["expires"] == nil {
		t.Fatalf("the killed run's lock: %v %v", lease, err)
	}
	lease["expires"] = 1
	body, _ := json.Marshal(lease)
	if _, err := srv.Client().PutObject(context.Background(), &s3.PutObjectInput{Bucket: &name, Key: &lock, Body: bytes.NewReader(body)}); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runBucketGC(t, env, "--root", root, "--force", "--json", "--quiet", "--apply", planFile)
	if len(out) == 0 {
		t.Fatalf("the apply after the kill: exit %d, no record\nstderr: %q", code, stderr)
	}
	if next := readRecord(t, out); next.Interrupted != nil {
		for _, p := range next.Interrupted.Removed {
			named[p] = true
		}
	}
	for _, k := range gone {
		if !named[k] {
			t.Fatalf("%s is gone (%d of %d) and no record names it", k, len(gone), n)
		}
	}
	if len(named) != len(gone) {
		t.Errorf("the records name %d deletions, %d objects are gone", len(named), len(gone))
	}
	if code != 0 || len(readPlanRecord(t, out).Removed)+len(gone) != n {
		t.Errorf("the apply after the kill: exit %d, %d deleted after the kill, %d before, of %d\n%s", code,
			len(readPlanRecord(t, out).Removed), len(gone), n, stderr)
	}
	if left := allKeys(t, srv, name, "r/.river/tmp/"); !slices.Equal(left, []string{"d0/late-1", "d3/late-2"}) {
		t.Errorf("left %d objects (%.3q), want only the unplanned ones", len(left), left)
	}
	t.Logf("%d of %d planned objects gone at the kill", len(gone), n)
}

// allKeys lists every key below prefix, page after page (keysIn reads
// one page).
func allKeys(t *testing.T, srv *s3test.Server, name, prefix string) []string {
	t.Helper()
	var ks []string
	p := s3.NewListObjectsV2Paginator(srv.Client(), &s3.ListObjectsV2Input{Bucket: &name, Prefix: &prefix})
	for p.HasMorePages() {
		page, err := p.NextPage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range page.Contents {
			ks = append(ks, strings.TrimPrefix(aws.ToString(o.Key), prefix))
		}
	}
	return ks
}
