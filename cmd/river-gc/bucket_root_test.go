//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/s3test"
)

// TestBucketRootEmptySegmentRefused (attack S1): a root with an empty
// path segment anywhere — leading, inner, or trailing beyond one '/' —
// names another prefix on S3 (keys are byte strings) and is a config
// error in both languages; nothing is deleted, even with --force.
func TestBucketRootEmptySegmentRefused(t *testing.T) {
	t.Parallel()
	srv := s3test.Start(t)
	name := srv.Bucket(t, false)
	upload(t, srv, name, "org/repo2/", "", map[string]string{".river/tmp/a.tmp": "a"})
	for _, root := range []string{"s3://" + name + "//org/repo2", "s3://" + name + "/org/repo2//", "s3://" + name + "/org//repo2", "s3://" + name + "//"} {
		for _, lang := range []string{"en", "ja"} {
			_, stderr, code := runBucketGC(t, bucketEnv(srv), "--force", "--json", "--lang", lang, "--root", root, "--now", future)
			if code != 2 || !bytes.Contains(stderr, []byte("s3://BUCKET/PREFIX")) || !bytes.Contains(stderr, []byte(root)) {
				t.Errorf("%s (%s): exit %d, want 2 and the root refused\n%s", root, lang, code, stderr)
			}
		}
	}
	if got := keysIn(t, srv, name, "org/repo2/"); !slices.Equal(got, []string{".river/tmp/a.tmp"}) {
		t.Errorf("left %q, want the object untouched", got)
	}
}

// TestBucketFolderMarkerWithBytesKept (attack S2): an object whose key
// ends in '/' and that holds bytes is kept, counted and named in the
// unjudgeable-name warning, never silently dropped, even with --force;
// an empty folder marker (what consoles create) is left alone.
func TestBucketFolderMarkerWithBytesKept(t *testing.T) {
	t.Parallel()
	srv := s3test.Start(t)
	name := srv.Bucket(t, false)
	old := `{"timestamp":"2020-01-01T00:00:00Z"}`
	upload(t, srv, name, "c/repo/", "", map[string]string{
		".river/tmp/old.json": old, ".river/tmp/d/": old, ".river/memory/index.json/": old, ".river/tmp/e/": ""})
	out, stderr, code := runBucketGC(t, bucketEnv(srv), "--force", "--json", "--root", "s3://"+name+"/c/repo", "--now", future)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var removed []string
	for _, r := range readRecord(t, out).Removed {
		removed = append(removed, r.Path)
	}
	if !slices.Equal(removed, []string{".river/tmp/old.json"}) {
		t.Errorf("removed %q, want only the plain object", removed)
	}
	f := fields(t, out, "warnings", "keptSummary")
	for _, want := range []string{`"unjudgeable-name"`, `".river/tmp/d/"`, `".river/memory/index.json/"`} {
		if !strings.Contains(f["warnings"], want) {
			t.Errorf("warnings miss %s: %s", want, f["warnings"])
		}
	}
	if strings.Contains(f["warnings"], `".river/tmp/e/"`) {
		t.Errorf("an empty folder marker is named as an object: %s", f["warnings"])
	}
	var kept map[string]struct{ Count int }
	if err := json.Unmarshal([]byte(f["keptSummary"]), &kept); err != nil || kept["tmp"].Count != 1 {
		t.Errorf("keptSummary does not count the marker with bytes: %s", f["keptSummary"])
	}
	left := keysIn(t, srv, name, "c/repo/")
	for _, k := range []string{".river/tmp/d/", ".river/memory/index.json/"} {
		if !slices.Contains(left, k) {
			t.Errorf("%s was deleted: left %q", k, left)
		}
	}
}

// TestBucketMissingBucket (attack S3): a bucket that does not exist is a
// config error saying so (NoSuchBucket), in both languages — not "no
// such object".
func TestBucketMissingBucket(t *testing.T) {
	t.Parallel()
	srv := s3test.Start(t)
	root := "s3://" + srv.Bucket(t, false) + "-absent/org/repo2"
	for lang, word := range map[string]string{"en": "does not exist", "ja": "存在しません"} {
		_, stderr, code := runBucketGC(t, bucketEnv(srv), "--json", "--lang", lang, "--root", root)
		if code != 2 || !bytes.Contains(stderr, []byte(word)) || !bytes.Contains(stderr, []byte("NoSuchBucket")) ||
			bytes.Contains(stderr, []byte("no such object")) {
			t.Errorf("%s: exit %d, want 2 saying the bucket does not exist\n%s", lang, code, stderr)
		}
	}
}

// TestBucketEndpointSecretsNeverPrinted (attack S4): an endpoint holding
// userinfo or a query, whether the SDK rejects it or reaches the server
// with it, never shows them in any output (stdout, stderr, with --debug
// and --force).
func TestBucketEndpointSecretsNeverPrinted(t *testing.T) {
	t.Parallel()
	srv := s3test.Start(t)
	name := srv.Bucket(t, false)
	upload(t, srv, name, "r/", "", map[string]string{".river/tmp/a.tmp": "a"})
	host := strings.TrimPrefix(srv.Endpoint, "http://")
	secrets := []string{"AKIATTACK", "SeCrEtPass", "t0kEnQuery"}
	for _, endpoint := range []string{
		"http://AKIATTACK:SeCrEtPass@" + host + "/?x=t0kEnQuery",
		"http://AKIATTACK:SeCrEtPass@" + host,
		"http://" + host + "/?x=t0kEnQuery",
		"http://AKIATTACK:SeCrEtPass@" + host + "/%zz",
	} {
		for _, args := range [][]string{{"--debug"}, {"--json", "--force", "--now", future}} {
			out, stderr, _ := runBucketGC(t, withEndpoint(bucketEnv(srv), endpoint), append(args, "--root", "s3://"+name+"/r")...)
			for _, s := range secrets {
				if bytes.Contains(out, []byte(s)) || bytes.Contains(stderr, []byte(s)) {
					t.Errorf("%s %v: %s is printed:\n%s\n%s", endpoint, args, s, out, stderr)
				}
			}
		}
	}
}
