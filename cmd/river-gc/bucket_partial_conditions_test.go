//go:build linux

package main

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/plangate-gc/plangate-gc/internal/s3test"
)

// TestBucketPartlyHonouredConditionsRefuseForce (SPEC B8 3): a server
// that honours conditions only in some shapes — per-key ETags only in
// one-key batches, or any condition only below .river/gc-canary/ (the
// fixed canary name of earlier builds) — passes no canary: --force is a
// config error naming what was ignored, or the object rewritten after
// the scan (and the store appended to) is kept.
func TestBucketPartlyHonouredConditionsRefuseForce(t *testing.T) {
	t.Parallel()
	srv := s3test.Fake(t)
	outsideCanary := func(r s3test.Request) bool {
		return !slices.ContainsFunc(r.Keys, func(k string) bool { return strings.HasPrefix(k, "r/.river/gc-canary/") })
	}
	for _, c := range []struct {
		name  string
		strip s3test.Fault
	}{
		{"one-key-batches-only", s3test.Fault{Kind: s3test.KindDeleteBatch, Action: s3test.ActStrip}.If(func(r s3test.Request) bool { return len(r.Keys) > 1 })},
		{"fixed-canary-prefix-only", s3test.StripConditions().If(outsideCanary)},
	} {
		t.Run(c.name, func(t *testing.T) {
			name := srv.Bucket(t, false)
			upload(t, srv, name, "r/", "", map[string]string{".river/tmp/a.tmp": "a", ".river/tmp/b.tmp": "b", ".river/memory/index.json": twinIndex})
			rewrite := func(key, body string) func(s3test.Request) {
				return func(s3test.Request) {
					if _, err := srv.Client().PutObject(context.Background(), &s3.PutObjectInput{Bucket: &name, Key: &key, Body: strings.NewReader(body)}); err != nil {
						t.Error(err)
					}
				}
			}
			live := strings.Replace(twinIndex, `"a1"`, `"live-decision"`, 1)
			p := s3test.Proxy(t, srv, c.strip,
				s3test.Before(s3test.KindDeleteBatch, 0, rewrite("r/.river/tmp/a.tmp", "rewritten after the scan")).OnKey("r/.river/tmp/a.tmp").Times(1),
				s3test.Before(s3test.KindPut, 0, rewrite("r/.river/memory/index.json", live)).OnKey("r/.river/memory/index.json").Times(1))
			out, stderr, code := runBucketGC(t, withEndpoint(bucketEnv(srv), p.URL), "--force", "--json", "--root", "s3://"+name+"/r", "--now", future,
				"--scope", "tmp", "--scope", "memory-entries", "--retention-days", "90")
			if code == 2 {
				if !strings.Contains(string(stderr), "does not honour a conditional request") {
					t.Errorf("config error without naming the condition:\n%s", stderr)
				}
				return
			}
			if got := keysIn(t, srv, name, "r/.river/tmp/"); !slices.Contains(got, ".river/tmp/a.tmp") {
				t.Errorf("exit %d: the object rewritten after the scan was deleted (left %q)\n%s", code, got, out)
			}
			indexKey := "r/.river/memory/index.json"
			got, err := srv.Client().GetObject(context.Background(), &s3.GetObjectInput{Bucket: &name, Key: &indexKey})
			if err != nil {
				t.Fatal(err)
			}
			defer got.Body.Close()
			var b strings.Builder
			if _, err := io.Copy(&b, got.Body); err != nil || !strings.Contains(b.String(), "live-decision") {
				t.Errorf("exit %d: the live decision appended during the run was overwritten: %q", code, b.String())
			}
		})
	}
}
