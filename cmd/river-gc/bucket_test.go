//go:build linux

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/plangate-gc/plangate-gc/internal/backend"
	"github.com/plangate-gc/plangate-gc/internal/backend/record"
	bucket "github.com/plangate-gc/plangate-gc/internal/backend/s3"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/internal/s3test"
)

// twinTree is a tree river gc judges the same on disk and in a bucket:
// metadata timestamps, an eval run without timestamps of its own beside
// a summary, review artifacts among unrelated names, a placeholder, a
// nested repository, temp files judged by mtime, and both entry stores.
var twinTree = map[string]string{
	".river/memory/old.json":                  `{"metadata":{"updatedAt":"2024-01-01T00:00:00Z"}}`,
	".river/memory/new.json":                  `{"metadata":{"createdAt":"2026-11-20T00:00:00Z"}}`,
	".river/memory/twice.json":                `{"timestamp":"2024-01-01T00:00:00Z","timestamp":"2024-01-02T00:00:00Z"}`,
	".river/memory/.gitkeep":                  "",
	".river/memory/index.json":                twinIndex,
	"artifacts/evals/run-1/summary.json":      `{"timestamp":"2024-02-01T00:00:00Z"}`,
	"artifacts/evals/run-1/log.txt":           "log",
	"artifacts/evals/run-2/summary.json":      `{"timestamp":"2026-11-25T00:00:00Z"}`,
	"artifacts/evals/run-2/log.txt":           "log",
	"artifacts/evals/results.jsonl":           twinLedger,
	"artifacts/evals/vendored/.git":           "gitdir: elsewhere",
	"artifacts/evals/vendored/x.txt":          "kept: a nested repository",
	"artifacts/review-artifact-1.json":        `{"timestamp":"2024-03-01T00:00:00Z"}`,
	"artifacts/review-artifact-2.json":        `{"timestamp":"2026-11-30T00:00:00Z"}`,
	"artifacts/review-old.md":                 "# old",
	"artifacts/notes.txt":                     "not in any scope",
	"artifacts/sub/review-artifact-3.json":    `{"timestamp":"2024-03-01T00:00:00Z"}`,
	".river/tmp/a.tmp":                        "tmp",
	"artifacts/.tmp/b.tmp":                    "tmp",
	".river/runs/2024-01-01T00-00-00-ab.json": `{"timestamp":"2024-01-01T00:00:00Z"}`,
}

const twinIndex = `{"version":"1","entries":[
{"id":"r1","type":"review","title":"t","content":"c","metadata":{"createdAt":"2024-01-01T00:00:00Z"}},
{"id":"r2","type":"review","title":"t","content":"c","metadata":{"createdAt":"2026-11-29T00:00:00Z"}},
{"id":"a1","type":"adr","title":"t","content":"c","metadata":{"createdAt":"2020-01-01T00:00:00Z"}}]}
`

const twinLedger = `{"timestamp":"2024-01-01T00:00:00Z","a":1}
{"timestamp":"2024-01-02T00:00:00Z","a":2}
{"timestamp":"2026-11-28T00:00:00Z","a":3}
{"timestamp":"2026-11-29T00:00:00Z","a":4}
`

// twinArgs judge the twin tree a day after the objects were written (so
// what is judged by mtime is recent, not in the future).
var twinArgs = []string{"--json", "--now", time.Now().UTC().Add(24 * time.Hour).Format(time.RFC3339), "--scope", "all", "--scope", "runs", "--scope", "memory-entries", "--scope", "eval-ledger",
	"--retention-days", "90"}

// bucketEnv is the environment of a river-gc run on srv: the SDK's
// standard variables, and this machine's own (AWS_CA_BUNDLE included).
func bucketEnv(srv *s3test.Server) []string { return append(os.Environ(), srv.Env()...) }

// upload writes tree into the bucket below prefix and on disk below dir,
// and sets each disk file's mtime to the object's LastModified, so that
// what is judged by mtime on disk is judged by LastModified in the bucket.
func upload(t *testing.T, srv *s3test.Server, name, prefix, dir string, tree map[string]string) {
	t.Helper()
	c := srv.Client()
	ctx := context.Background()
	for rel, body := range tree {
		key := prefix + rel
		if _, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: &name, Key: &key, Body: strings.NewReader(body)}); err != nil {
			t.Fatal(err)
		}
		if dir == "" {
			continue
		}
		head, err := c.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &name, Key: &key})
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, *head.LastModified, *head.LastModified); err != nil {
			t.Fatal(err)
		}
	}
}

// runBucketGC runs the river-gc binary with env and returns stdout, stderr and
// the exit code.
func runBucketGC(t *testing.T, env []string, args ...string) ([]byte, []byte, int) {
	t.Helper()
	cmd := exec.Command(buildBinary(t), args...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return stdout.Bytes(), stderr.Bytes(), 0
	case errors.As(err, &exit):
		return stdout.Bytes(), stderr.Bytes(), exit.ExitCode()
	}
	t.Fatal(err)
	return nil, nil, -1
}

// fields returns the named members of a JSON record, raw.
func fields(t *testing.T, out []byte, names ...string) map[string]string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("not a JSON record: %v\n%s", err, out)
	}
	got := map[string]string{}
	for _, n := range names {
		got[n] = string(m[n])
	}
	return got
}

// keysIn lists the bucket's keys below prefix.
func keysIn(t *testing.T, srv *s3test.Server, name, prefix string) []string {
	t.Helper()
	out, err := srv.Client().ListObjectsV2(context.Background(), &s3.ListObjectsV2Input{Bucket: &name, Prefix: &prefix})
	if err != nil {
		t.Fatal(err)
	}
	var ks []string
	for _, o := range out.Contents {
		ks = append(ks, strings.TrimPrefix(aws.ToString(o.Key), prefix))
	}
	return ks
}

// TestBucketTwinTree: the same tree on disk and in a bucket gives the
// same removed[], evidence and kept counts, byte for byte (SPEC H2), in a
// dry-run and with --force; the bucket run says it has no git index and
// counts its requests.
func TestBucketTwinTree(t *testing.T) {
	t.Parallel()
	srv := s3test.Start(t)
	name := srv.Bucket(t, false)
	dir := t.TempDir()
	upload(t, srv, name, "org/repo/", dir, twinTree)
	env := bucketEnv(srv)
	same := []string{"removed", "keptSummary", "scopes", "retention", "errors"}
	bucketRoot := "s3://" + name + "/org/repo"
	// Policies other than age, with their tie-breaks, and an exclude; the
	// engine's input (--emit-inventory) must be the same bytes too.
	for _, extra := range [][]string{
		{"--max-entries", "1", "--retention-days", "100000"},
		{"--max-size-mb", "0.00005", "--retention-days", "100000", "--exclude", ".river/memory/old.json", "--exclude", "/artifacts/evals/run-1/"},
	} {
		args := append(slices.Clone(twinArgs), extra...)
		disk, _, _ := runBucketGC(t, env, append([]string{"--root", dir}, args...)...)
		obj, _, _ := runBucketGC(t, env, append([]string{"--root", bucketRoot}, args...)...)
		if d, o := fields(t, disk, same...), fields(t, obj, same...); d["removed"] != o["removed"] || d["keptSummary"] != o["keptSummary"] {
			t.Errorf("%v: removed differs\ndisk:   %s\nbucket: %s", extra, d["removed"], o["removed"])
		}
		inv := []string{"--emit-inventory", "--now", twinArgs[2], "--scope", "all", "--scope", "memory-entries", "--scope", "eval-ledger"}
		dinv, _, _ := runBucketGC(t, env, append([]string{"--root", dir}, inv...)...)
		oinv, _, _ := runBucketGC(t, env, append([]string{"--root", bucketRoot}, inv...)...)
		if !bytes.Equal(dinv, oinv) || len(dinv) == 0 {
			t.Errorf("--emit-inventory differs\ndisk:   %s\nbucket: %s", dinv, oinv)
		}
	}
	// --explain answers alike: age, count rank, a guard, an exclude, an
	// eval run's timestamp, a nested repository, an entry, a key no scope
	// holds.
	explain := append(slices.Clone(twinArgs[1:3]), "--scope", "all", "--scope", "memory-entries", "--exclude", ".river/memory/new.json",
		"--explain", ".river/memory/old.json", "--explain", ".river/memory/new.json", "--explain", "artifacts/evals/run-1/log.txt",
		"--explain", "artifacts/evals/vendored/x.txt", "--explain", ".river/memory/index.json#r1", "--explain", ".river/memory/.gitkeep",
		"--explain", "artifacts/evals/results.jsonl", "--explain", "artifacts/review-artifact-2.json")
	onDiskExplain := slices.Clone(explain) // paths from the working directory: absolute ones into the root
	for i, a := range onDiskExplain {
		if i > 0 && onDiskExplain[i-1] == "--explain" {
			onDiskExplain[i] = filepath.Join(dir, a)
		}
	}
	dex, derr, _ := runBucketGC(t, env, append([]string{"--root", dir}, onDiskExplain...)...)
	oex, oerr, _ := runBucketGC(t, env, append([]string{"--root", bucketRoot}, explain...)...)
	if !bytes.Equal(dex, oex) || bytes.Count(dex, []byte("\n")) < 8 {
		t.Errorf("--explain differs\ndisk:\n%s%s\nbucket:\n%s%s", dex, derr, oex, oerr)
	}
	for _, mode := range []string{"--dry-run", "--force"} {
		disk, derr, dcode := runBucketGC(t, env, append([]string{mode, "--root", dir}, twinArgs...)...)
		obj, oerr, ocode := runBucketGC(t, env, append([]string{mode, "--root", bucketRoot}, twinArgs...)...)
		if dcode != 0 || ocode != 0 {
			t.Fatalf("%s: exit %d (disk), %d (bucket)\n%s\n%s", mode, dcode, ocode, derr, oerr)
		}
		d, o := fields(t, disk, same...), fields(t, obj, same...)
		for _, f := range same {
			if d[f] != o[f] {
				t.Errorf("%s: %s differs\ndisk:   %s\nbucket: %s", mode, f, d[f], o[f])
			}
		}
		if !strings.Contains(d["removed"], "artifacts/evals/run-1/log.txt") || strings.Contains(d["removed"], "vendored") {
			t.Errorf("%s: the tree does not exercise eval runs and nested repositories: %s", mode, d["removed"])
		}
		if !bytes.Contains(obj, []byte(`"no-git-index"`)) || !bytes.Contains(obj, []byte(`"ListObjectsV2": `)) {
			t.Errorf("%s: the bucket record misses the git-index warning or the request counts:\n%s", mode, obj)
		}
	}
	// After --force the bucket holds what the disk holds.
	diskEqualsBucket(t, dir, srv, name, "org/repo/")
	for _, k := range []string{".river/memory/index.json", "artifacts/evals/results.jsonl"} {
		d, _ := os.ReadFile(filepath.Join(dir, k))
		if b := objectBytes(t, srv, name, "org/repo/"+k); !bytes.Equal(d, b) || bytes.Equal(d, []byte(twinTree[k])) {
			t.Errorf("%s was not rewritten alike:\ndisk:   %q\nbucket: %q", k, d, b)
		}
	}
}

// bucketRoot opens root in-process with srv's environment (to plant
// locks and journals as another run would).
func bucketRoot(t *testing.T, srv *s3test.Server, root string) *bucket.Bucket {
	t.Helper()
	for _, kv := range srv.Env() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	b, err := bucket.Open(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBucketLockIsExclusive: a live lease held by another run makes
// --force fail (exit 1) with nothing deleted; a stale one is taken over.
func TestBucketLockIsExclusive(t *testing.T) {
	// Not parallel: bucketRoot sets the process's environment (t.Setenv).
	srv := s3test.Start(t)
	name := srv.Bucket(t, false)
	root := "s3://" + name + "/r"
	upload(t, srv, name, "r/", "", map[string]string{".river/tmp/a.tmp": "a", ".river/tmp/b.tmp": "b"})
	b := bucketRoot(t, srv, root)
	ctx := context.Background()
	other, err := record.Acquire(ctx, b, gc.LockKey, "ci-runner-7.4242.1700000000000000000", time.Now(), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"--force", "--json", "--root", root, "--now", future}
	out, stderr, code := runBucketGC(t, bucketEnv(srv), args...)
	if code != 1 || len(keysIn(t, srv, name, "r/.river/tmp/")) != 2 || !bytes.Contains(stderr, []byte("4242")) || !bytes.Contains(stderr, []byte("ci-runner-7")) {
		t.Fatalf("a held lock: exit %d, %d objects left, stderr %s\n%s", code, len(keysIn(t, srv, name, "r/.river/tmp/")), stderr, out)
	}
	other.Release(ctx) //nolint:errcheck // replaced by a stale lease next
	if _, err := record.Acquire(ctx, b, gc.LockKey, "dead-run", time.Now().Add(-2*time.Hour), time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runBucketGC(t, bucketEnv(srv), args...); code != 0 {
		t.Fatalf("a stale lease was not taken over: exit %d\n%s", code, stderr)
	}
	if left := keysIn(t, srv, name, "r/"); !slices.Equal(left, []string{gc.RootMarker}) {
		t.Errorf("left behind: %q; want only the root marker (the lock released, the journal removed)", left)
	}
}

// TestBucketJournalNamesAKilledRun: the journal object of a run that
// left no record names what it deleted; the next run reports it as
// interrupted and, with --force and its record written, removes it.
func TestBucketJournalNamesAKilledRun(t *testing.T) {
	// Not parallel: bucketRoot sets the process's environment (t.Setenv).
	srv := s3test.Start(t)
	name := srv.Bucket(t, false)
	root := "s3://" + name + "/r"
	upload(t, srv, name, "r/", "", map[string]string{".river/tmp/gone.tmp": "a", ".river/tmp/kept.tmp": "b"})
	b := bucketRoot(t, srv, root)
	ctx := context.Background()
	var objs []backend.Object
	b.List(ctx, ".river/tmp/", func(o backend.Object) error { objs = append(objs, o); return nil }) //nolint:errcheck // checked by len
	if len(objs) != 2 {
		t.Fatalf("listed %d objects", len(objs))
	}
	j := record.NewWriter(record.NewObjects(b, gc.JournalDir, "killed"), nil)
	if err := j.Intend(ctx, []record.Intent{{Op: "delete", Key: objs[0].Key, Tag: objs[0].Tag}, {Op: "delete", Key: objs[1].Key, Tag: objs[1].Tag}}); err != nil {
		t.Fatal(err)
	}
	b.Delete(ctx, objs[:1]) // the kill came after the first deletion
	for _, mode := range []string{"--dry-run", "--force"} {
		out, stderr, code := runBucketGC(t, bucketEnv(srv), mode, "--json", "--root", root, "--now", "2000-01-01T00:00:00Z")
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s", mode, code, stderr)
		}
		r := readRecord(t, out)
		if r.Interrupted == nil || !slices.Equal(r.Interrupted.Removed, []string{".river/tmp/gone.tmp"}) || r.Interrupted.Finished {
			t.Errorf("%s: interrupted = %+v, want the one deleted object, unfinished", mode, r.Interrupted)
		}
	}
	if left := keysIn(t, srv, name, "r/"+gc.JournalDir); len(left) != 0 {
		t.Errorf("the journal is left after a recorded --force run: %q", left)
	}
	if out, _, _ := runBucketGC(t, bucketEnv(srv), "--json", "--root", root); readRecord(t, out).Interrupted != nil {
		t.Errorf("a third run still reports the interrupted run")
	}
}

// TestBucketVersioned: on a versioned bucket a delete leaves a delete
// marker (every version stays) and the record says the space is not
// freed yet (SPEC H5). The record goes to local files as on disk
// (--output-file, --summary-file).
func TestBucketVersioned(t *testing.T) {
	t.Parallel()
	srv := s3test.Start(t)
	name := srv.Bucket(t, true)
	upload(t, srv, name, "", "", map[string]string{".river/tmp/a.tmp": "a"})
	dir := t.TempDir()
	record, summary := filepath.Join(dir, "out/gc.json"), filepath.Join(dir, "summary.md")
	_, stderr, code := runBucketGC(t, bucketEnv(srv), "--force", "--json", "--output-file", record, "--summary-file", summary,
		"--root", "s3://"+name, "--now", future)
	out, _ := os.ReadFile(record)
	md, _ := os.ReadFile(summary)
	if code != 0 || !bytes.Contains(out, []byte(`"versioned-bucket"`)) || len(readRecord(t, out).Removed) != 1 ||
		!bytes.Contains(md, []byte("delete markers")) {
		t.Fatalf("exit %d\n%s\n%s\n%s", code, out, md, stderr)
	}
	v, err := srv.Client().ListObjectVersions(context.Background(), &s3.ListObjectVersionsInput{Bucket: &name, Prefix: aws.String(".river/tmp/")})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Versions) != 1 || len(v.DeleteMarkers) != 1 {
		t.Errorf("versions %d, delete markers %d; want the version kept under one marker", len(v.Versions), len(v.DeleteMarkers))
	}
}

// TestBucketCredentialsNeverPrinted: no output of any run — a dry-run
// with --debug, a --force run, a run with a wrong secret — holds the
// secret key (SPEC H1).
func TestBucketCredentialsNeverPrinted(t *testing.T) {
	t.Parallel()
	srv := s3test.Start(t)
	name := srv.Bucket(t, false)
	upload(t, srv, name, "", "", map[string]string{".river/tmp/a.tmp": "a", "artifacts/review-artifact-1.json": `{"timestamp":"2020-01-01T00:00:00Z"}`})
	root := "s3://" + name
	wrong := "wrong" + srv.SecretKey
	for _, c := range []struct {
		env  []string
		args []string
		code int
	}{
		{bucketEnv(srv), []string{"--debug", "--root", root}, 0},
		{bucketEnv(srv), []string{"--force", "--json", "--root", root, "--now", future}, 0},
		{append(bucketEnv(srv), "AWS_SECRET_ACCESS_KEY="+wrong), []string{"--debug", "--json", "--root", root}, 2},
	} {
		out, stderr, code := runBucketGC(t, c.env, c.args...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d\n%s", c.args, code, c.code, stderr)
		}
		for _, secret := range []string{srv.SecretKey, wrong} {
			if bytes.Contains(out, []byte(secret)) || bytes.Contains(stderr, []byte(secret)) {
				t.Errorf("%v: the secret key is printed:\n%s\n%s", c.args, out, stderr)
			}
		}
	}
}

// withEndpoint is env with the S3 endpoint replaced (a proxy's).
func withEndpoint(env []string, endpoint string) []string {
	return append(slices.Clone(env), "AWS_ENDPOINT_URL_S3="+endpoint)
}

// TestBucketCanaryRefusesIgnoredConditions (SPEC H3): behind a server
// that accepts every condition and honours none (the proxy strips them
// and re-signs), --force is a config error naming what was ignored, and
// nothing of the root is deleted; a dry-run, which writes nothing, runs.
func TestBucketCanaryRefusesIgnoredConditions(t *testing.T) {
	t.Parallel()
	srv := s3test.Start(t)
	name := srv.Bucket(t, false)
	upload(t, srv, name, "r/", "", map[string]string{".river/tmp/a.tmp": "a"})
	p := s3test.Proxy(t, srv, s3test.StripConditions())
	env := withEndpoint(bucketEnv(srv), p.URL)
	_, stderr, code := runBucketGC(t, env, "--force", "--json", "--root", "s3://"+name+"/r", "--now", future)
	if code != 2 || !bytes.Contains(stderr, []byte(backend.IgnoredIfNoneMatch)) {
		t.Errorf("--force behind a server ignoring conditions: exit %d, stderr %s", code, stderr)
	}
	if got := keysIn(t, srv, name, "r/"); !slices.Equal(got, []string{".river/tmp/a.tmp"}) { // the canary runs before the marker
		t.Errorf("left %q, want the object untouched and no canary", got)
	}
	if p.Count(s3test.KindDeleteBatch) > 1 {
		t.Errorf("%d DeleteObjects requests: only the canary's own cleanup may be sent", p.Count(s3test.KindDeleteBatch))
	}
	out, stderr, code := runBucketGC(t, env, "--json", "--root", "s3://"+name+"/r", "--now", future)
	if code != 0 || len(readRecord(t, out).Removed) != 1 || p.Count(s3test.KindPut) != 5 {
		t.Errorf("a dry-run through the same server: exit %d, %d PUTs (the canary's five only: four canaries, one create over one)\n%s", code, p.Count(s3test.KindPut), stderr)
	}
}

// TestBucketCostIsNearTheMinimum (SPEC H6): a --force run over 2,500
// objects judged by LastModified sends one list page and one delete batch
// per 1000 objects, one journal object, and a handful of fixed requests;
// the record's counts match what the server saw.
func TestBucketCostIsNearTheMinimum(t *testing.T) {
	t.Parallel()
	srv := s3test.Start(t)
	name := srv.Bucket(t, false)
	tree := map[string]string{}
	for i := range 2500 {
		tree[fmt.Sprintf(".river/tmp/%04d.tmp", i)] = "x"
	}
	upload(t, srv, name, "", "", tree)
	p := s3test.Proxy(t, srv)
	out, stderr, code := runBucketGC(t, withEndpoint(bucketEnv(srv), p.URL), "--force", "--json", "--timestamp", "mtime",
		"--scope", "tmp", "--root", "s3://"+name, "--now", future, "--max-entries", "1000000")
	if code != 0 || len(readRecord(t, out).Removed) != 2500 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var rec struct{ Requests map[string]int }
	if err := json.Unmarshal(out, &rec); err != nil {
		t.Fatal(err)
	}
	// After the record: the lock's release and the journal's removal.
	if got := p.Count(s3test.KindDeleteBatch); rec.Requests["DeleteObjects"] != 3+2 || got != rec.Requests["DeleteObjects"]+2 {
		t.Errorf("DeleteObjects: record %d, server %d; want 3 batches and the canary's 2, then 2 more", rec.Requests["DeleteObjects"], got)
	}
	// The minimum is 3 list pages and 3 delete batches. Fixed: the root
	// check and the other tmp prefix (2 lists), the canary (4 PUTs, 2
	// refused PUTs, one 1,000-key DeleteObjects and the cleanup, a HEAD
	// and a read for each of its 2 refused keys), the lock (PUT, a read
	// proving it before the journal batch, release), the journal (list,
	// one batch object, done, removal), the root marker, the versioning
	// probe: 23. The store hint reads the store scopes the run left
	// alone (SPEC B9: the runs prefix, the index, the ledger): 3 more.
	if total, min := p.Total(), 6; total > min+23+3 {
		t.Errorf("%d requests for 2500 objects (%v); want at most %d", total, rec.Requests, min+23+3)
	}
}

// TestBucketLostAnswersLoseNoRecord (SPEC H6, B4): a DeleteObjects whose
// answer is lost after the engine acted is retried by the SDK; the keys
// then found gone count as deleted, so removed[] names every object the
// engine deleted. When every attempt's answer is lost, each key is looked
// up and the gone ones are named. When the lookups fail too, the run
// cannot tell (exit 1, errors[]) and keeps its journal, so the next run
// names what is gone.
func TestBucketLostAnswersLoseNoRecord(t *testing.T) {
	t.Parallel()
	srv := s3test.Start(t)
	for _, c := range []struct {
		name   string
		faults []s3test.Fault
		code   int
	}{
		// The canary sends DeleteObjects 1 and 2; the run's batch is 3.
		{"answer-lost-once", []s3test.Fault{s3test.DropResponse(s3test.KindDeleteBatch, 3)}, 0},
		{"every-answer-lost", []s3test.Fault{s3test.DropResponse(s3test.KindDeleteBatch, 3),
			s3test.DropResponse(s3test.KindDeleteBatch, 4), s3test.DropResponse(s3test.KindDeleteBatch, 5)}, 0},
		{"every-answer-and-lookup-lost", []s3test.Fault{s3test.DropResponse(s3test.KindDeleteBatch, 3),
			s3test.DropResponse(s3test.KindDeleteBatch, 4), s3test.DropResponse(s3test.KindDeleteBatch, 5),
			s3test.DropResponse(s3test.KindHead, 0)}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			name := srv.Bucket(t, false)
			upload(t, srv, name, "", "", map[string]string{".river/tmp/a.tmp": "a", ".river/tmp/b.tmp": "b"})
			p := s3test.Proxy(t, srv, c.faults...)
			args := []string{"--force", "--json", "--root", "s3://" + name, "--now", future}
			out, stderr, code := runBucketGC(t, withEndpoint(bucketEnv(srv), p.URL), args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\n%s", code, c.code, stderr)
			}
			gone := []string{".river/tmp/a.tmp", ".river/tmp/b.tmp"}
			if left := keysIn(t, srv, name, ".river/tmp/"); len(left) != 0 {
				t.Fatalf("the engine kept %q: the fault did not act as planned", left)
			}
			var named []string
			for _, r := range readRecord(t, out).Removed {
				named = append(named, r.Path)
			}
			if c.code == 0 {
				if !slices.Equal(named, gone) {
					t.Errorf("removed %q, want %q", named, gone)
				}
				return
			}
			next, _, _ := runBucketGC(t, bucketEnv(srv), "--json", "--root", "s3://"+name)
			in := readRecord(t, next).Interrupted
			if in == nil || !slices.Equal(slices.Concat(named, in.Removed), gone) && !slices.Equal(in.Removed, gone) {
				t.Errorf("this run named %q, the next %+v; want every deleted object named", named, in)
			}
		})
	}
}

// diskEqualsBucket fails t unless the files under dir are, by relative
// name, the keys under prefix in bucket name (river gc's root marker aside).
func diskEqualsBucket(t *testing.T, dir string, srv *s3test.Server, name, prefix string) {
	t.Helper()
	var onDisk []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error { //nolint:errcheck // a walk error shows as a difference
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			onDisk = append(onDisk, rel)
		}
		return nil
	})
	slices.Sort(onDisk)
	inBucket := slices.DeleteFunc(keysIn(t, srv, name, prefix), func(k string) bool { return k == gc.RootMarker })
	if !slices.Equal(onDisk, inBucket) {
		t.Errorf("after --force\ndisk:   %q\nbucket: %q", onDisk, inBucket)
	}
}
