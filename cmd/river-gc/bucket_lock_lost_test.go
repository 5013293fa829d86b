//go:build linux

package main

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/internal/s3test"
)

// bucketLostLockStopsTheRun (SPEC B8 5): while run A deletes, its
// lock object is deleted (an operator, a sync tool) and run B, a second
// --force, runs to its end. B leaves A's live journal alone (it names
// nothing of A's as interrupted and removes none of A's objects); A,
// before its next journal batch (its store rewrite), finds the lock gone,
// stops, says so and keeps its journal; a later run names what A did.
func bucketLostLockStopsTheRun(t *testing.T) {
	srv := s3test.Start(t)
	name := srv.Bucket(t, false)
	upload(t, srv, name, "r/", "", map[string]string{".river/tmp/a.tmp": "a", ".river/tmp/b.tmp": "b", ".river/memory/index.json": twinIndex})
	root := "s3://" + name + "/r"
	args := []string{"--force", "--json", "--root", root, "--now", future, "--scope", "tmp", "--scope", "memory-entries", "--retention-days", "90"}
	journal := func() []string { return keysIn(t, srv, name, "r/"+gc.JournalDir) }
	var during []string
	second := func(s3test.Request) { // A's batch waits in the proxy meanwhile
		lock := "r/" + gc.LockKey
		if _, err := srv.Client().DeleteObject(context.Background(), &s3.DeleteObjectInput{Bucket: &name, Key: &lock}); err != nil {
			t.Error(err)
		}
		before := journal()
		out, stderr, _ := runBucketGC(t, bucketEnv(srv), args...)
		if removed, rewritten := interruptedOf(t, out); removed != nil || rewritten != nil {
			t.Errorf("run B named a live run's work as interrupted: removed %q, rewritten %q\n%s", removed, rewritten, stderr)
		}
		during = journal()
		if len(before) == 0 || !slices.Equal(before, during) {
			t.Errorf("A's journal %q before run B, %q after: want it left alone", before, during)
		}
	}
	p := s3test.Proxy(t, srv, s3test.Before(s3test.KindDeleteBatch, 0, second).If(func(r s3test.Request) bool {
		return slices.Contains(r.Keys, "r/.river/tmp/a.tmp")
	}).Times(1))
	out, stderr, code := runBucketGC(t, withEndpoint(bucketEnv(srv), p.URL), args...)
	rec := readRecord(t, out)
	named := slices.ContainsFunc(rec.Errors, func(e struct{ Path, Message string }) bool { return strings.Contains(e.Message, "lock") })
	if code != 1 || !named {
		t.Errorf("run A: exit %d, errors %+v; want 1 and the lost lock named\n%s", code, rec.Errors, stderr)
	}
	after := journal()
	for _, k := range during {
		if !slices.Contains(after, k) {
			t.Errorf("A's journal after its run: %q (during B: %q); want it kept", after, during)
			break
		}
	}
	next, stderr, _ := runBucketGC(t, bucketEnv(srv), args...)
	if removed, _ := interruptedOf(t, next); !slices.Contains(removed, ".river/tmp/a.tmp") {
		t.Errorf("the next run names %q; want A's batch named\n%s", removed, stderr)
	}
}
