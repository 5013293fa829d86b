//go:build linux

package main

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/plangate-gc/plangate-gc/internal/s3test"
)

// interruptedOf is the "interrupted" member of a JSON record.
func interruptedOf(t *testing.T, out []byte) (removed, rewritten []string) {
	t.Helper()
	var rec struct {
		Interrupted *struct{ Removed, Rewritten []string }
	}
	if err := json.Unmarshal(out, &rec); err != nil {
		t.Fatalf("not a JSON record: %v\n%.400s", err, out)
	}
	if rec.Interrupted == nil {
		return nil, nil
	}
	return rec.Interrupted.Removed, rec.Interrupted.Rewritten
}

// afterFirst runs fn once, before the first request that follows the
// first request of kind among those a fault sees.
func afterFirst(kind s3test.Kind, fn func()) func(s3test.Request) {
	var seen, done atomic.Bool
	return func(r s3test.Request) {
		switch {
		case !seen.Load():
			seen.Store(r.Kind == kind)
		case !done.Swap(true):
			fn()
		}
	}
}

// bucketLostAnswerIsUnknown (SPEC B8 6): the server applies a
// request, its answer is lost, and a writer changes the object before the
// SDK's retry, whose condition then fails. For a store rewrite ("not my
// bytes" on the read-back) and for a DeleteObjects ("present with
// another ETag") the outcome is unknown, not "changed": the run keeps its
// journal (exit 1) and the next run names what may have gone.
func bucketLostAnswerIsUnknown(t *testing.T) {
	srv := s3test.Fake(t)
	for _, c := range []struct {
		name, key string
		kind      s3test.Kind
		args      []string
		tree      map[string]string
	}{
		{"store-put", ".river/memory/index.json", s3test.KindPut, []string{"--scope", "memory-entries", "--retention-days", "90"},
			map[string]string{".river/memory/index.json": twinIndex}},
		{"delete-batch", ".river/tmp/a.tmp", s3test.KindDeleteBatch, []string{"--scope", "tmp"},
			map[string]string{".river/tmp/a.tmp": "a", ".river/tmp/b.tmp": "b"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			name := srv.Bucket(t, false)
			upload(t, srv, name, "r/", "", c.tree)
			full := "r/" + c.key
			names := func(r s3test.Request) bool { return slices.Contains(r.Keys, full) }
			writer := afterFirst(c.kind, func() { // a writer, between the lost answer and the retry
				body := `{"version":"1","entries":[]}` + "\n"
				if _, err := srv.Client().PutObject(context.Background(), &s3.PutObjectInput{Bucket: &name, Key: &full, Body: strings.NewReader(body)}); err != nil {
					t.Error(err)
				}
			})
			// The writer acts before the next request naming the key: the
			// SDK's retry, or the lookup that settles a lost answer.
			p := s3test.Proxy(t, srv, s3test.Before("", 0, writer).If(names), s3test.DropResponse(c.kind, 0).If(names).Times(1))
			root := "s3://" + name + "/r"
			out, stderr, code := runBucketGC(t, withEndpoint(bucketEnv(srv), p.URL), append([]string{"--force", "--json", "--root", root, "--now", future}, c.args...)...)
			if code != 1 {
				t.Errorf("exit %d, want 1 (the outcome is unknown)\n%s\n%s", code, out, stderr)
			}
			if j := keysIn(t, srv, name, "r/.river/gc-journal/"); len(j) == 0 {
				t.Errorf("the journal is gone: what the lost attempt did is in no record")
			}
			next, stderr, _ := runBucketGC(t, bucketEnv(srv), append([]string{"--json", "--root", root, "--now", future}, c.args...)...)
			removed, rewritten := interruptedOf(t, next)
			if !slices.Contains(removed, c.key) && !slices.Contains(rewritten, c.key) {
				t.Errorf("the next run names removed %q, rewritten %q; want %s named\n%s", removed, rewritten, c.key, stderr)
			}
		})
	}
}
