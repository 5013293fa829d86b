//go:build linux

package gc

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	bucket "github.com/plangate-gc/plangate-gc/internal/backend/s3"
	"github.com/plangate-gc/plangate-gc/internal/s3test"
	"github.com/plangate-gc/plangate-gc/skill"
)

// bucketConfig is a --force run on a fresh bucket holding the given
// files below .river/tmp/ (all old at --now) and the store index.
func bucketConfig(t *testing.T, files ...string) (Config, *s3test.Server, string) {
	t.Helper()
	srv := s3test.Start(t)
	name := srv.Bucket(t, false)
	for _, kv := range srv.Env() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	c := srv.Client()
	for _, f := range files {
		if _, err := c.PutObject(context.Background(), &s3.PutObjectInput{Bucket: &name, Key: aws.String("p/" + f),
			Body: strings.NewReader("old " + f)}); err != nil {
			t.Fatal(err)
		}
	}
	b, err := bucket.Open(context.Background(), "s3://"+name+"/p")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".river"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := config(t, dir, true) // seed 000's policy; the root is then the bucket
	cfg.Root = OpenObjects(b.Root(), b)
	cfg.Now += 10 * 365 * 86400 // everything listed is old
	return cfg, srv, name
}

// TestBucketRewrittenAfterScanStays (SPEC H3): an object rewritten
// between the scan and the delete is not deleted — the DeleteObjects
// batch carries the ETag judged — and errors[] names it; the others go.
// So does an entry store rewritten after it was read (PUT If-Match).
func TestBucketRewrittenAfterScanStays(t *testing.T) {
	cfg, srv, name := bucketConfig(t, ".river/tmp/a", ".river/tmp/b", ".river/tmp/c", indexRel)
	c := srv.Client()
	if _, err := c.PutObject(context.Background(), &s3.PutObjectInput{Bucket: &name, Key: aws.String("p/" + indexRel),
		Body: strings.NewReader(testIndex)}); err != nil {
		t.Fatal(err)
	}
	cfg.Scopes = []skill.Scope{skill.ScopeTmp, skill.ScopeMemoryEntries}
	scopes := 0
	cfg.Scanned = func(int) { // after each scope's judgement; the last one is before any deletion
		if scopes++; scopes < len(cfg.Scopes) {
			return
		}
		for _, k := range []string{".river/tmp/b", indexRel} {
			if _, err := c.PutObject(context.Background(), &s3.PutObjectInput{Bucket: &name, Key: aws.String("p/" + k),
				Body: strings.NewReader("rewritten by another writer")}); err != nil {
				t.Fatal(err)
			}
		}
	}
	out, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := removedPaths(out); !slices.Equal(got, []string{".river/tmp/a", ".river/tmp/c"}) {
		t.Errorf("removed %q, want a and c", got)
	}
	var errs []string
	for _, e := range out.Errors {
		errs = append(errs, e.Path+": "+e.Err.Error())
	}
	want := []string{indexRel + ": changed since scan: etag", ".river/tmp/b: changed since scan: etag"}
	if !slices.Equal(errs, want) {
		t.Errorf("errors %q, want %q", errs, want)
	}
	left, err := c.ListObjectsV2(context.Background(), &s3.ListObjectsV2Input{Bucket: &name, Prefix: aws.String("p/")})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, o := range left.Contents {
		keys = append(keys, aws.ToString(o.Key))
	}
	if !slices.Equal(keys, []string{"p/" + RootMarker, "p/" + indexRel, "p/.river/tmp/b"}) {
		t.Errorf("left %q: the lock, journal or canary stayed, or a rewritten object went", keys)
	}
	if out.Requests["DeleteObjects"] != 1 || out.Requests["PutObject"] < 3 {
		t.Errorf("requests %v: want one DeleteObjects batch, the lock, journal and rewrite PUTs", out.Requests)
	}
}
