//go:build linux

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/internal/s3test"
)

// TestBucketJournalOfLongKeysIsRead (SPEC B8 7): 5,000 keys of about
// 1,000 bytes, most of them control characters (quoted, four bytes
// each), make about 20 MB of intents in one batch. river-gc is killed
// (SIGKILL) after some hundreds of its deletions; once its lease is over,
// the next run names every object the engine deleted, and no journal
// object is called unreadable.
func TestBucketJournalOfLongKeysIsRead(t *testing.T) {
	t.Parallel()
	srv := s3test.Start(t)
	name := srv.Bucket(t, false)
	c := srv.Client()
	var wg sync.WaitGroup
	keys := make(chan string)
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range keys {
				if _, err := c.PutObject(context.Background(), &s3.PutObjectInput{Bucket: &name, Key: &k, Body: strings.NewReader("x")}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	seg := strings.Repeat("\x01", 240) // the engine's names are at most 255 bytes
	for i := range 5000 {
		keys <- fmt.Sprintf("r/.river/tmp/%s/%s/%s/%s/%04d.tmp", seg, seg, seg, seg, i)
	}
	close(keys)
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	var run *exec.Cmd
	var seen atomic.Int32
	kill := func(s3test.Request) {
		if seen.Add(1) == 600 {
			run.Process.Kill()
		}
	}
	p := s3test.Proxy(t, srv, s3test.Before(s3test.KindDelete, 0, kill))
	root := "s3://" + name + "/r"
	run = exec.Command(buildBinary(t), "--force", "--json", "--root", root, "--now", future, "--scope", "tmp")
	run.Env = withEndpoint(bucketEnv(srv), p.URL)
	var stderr bytes.Buffer
	run.Stdout, run.Stderr = io.Discard, &stderr
	if err := run.Run(); err == nil {
		t.Fatalf("river-gc was not killed\n%s", stderr.Bytes())
	}
	var deleted []string
	for k := range p.Deleted() {
		if k, ok := strings.CutPrefix(k, "r/.river/tmp/"); ok { // not the canary's
			deleted = append(deleted, ".river/tmp/"+k)
		}
	}
	if len(deleted) < 500 {
		t.Fatalf("%d objects deleted before the kill; the test wants some hundreds", len(deleted))
	}
	expireLock(t, srv, name, "r/"+gc.LockKey)
	out, errText, _ := runBucketGC(t, bucketEnv(srv), "--json", "--root", root, "--now", future, "--scope", "tmp")
	rec := readRecord(t, out)
	var missing []string
	for _, k := range deleted {
		if rec.Interrupted == nil || !slices.Contains(rec.Interrupted.Removed, k) {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		t.Errorf("%d of %d deleted objects are in no record (the next run names %d)\n%s", len(missing), len(deleted), len(rec.Interrupted.Removed), errText)
	}
	for _, e := range rec.Errors {
		if strings.Contains(e.Message, "journal") {
			t.Errorf("the next run: %s: %s", e.Path, e.Message)
		}
	}
}

// expireLock rewrites a killed run's lock object (same holder) with a
// lease that ran out a minute ago: the lock once its 15 minutes passed.
func expireLock(t *testing.T, srv *s3test.Server, name, key string) {
	t.Helper()
	ctx := context.Background()
	got, err := srv.Client().GetObject(ctx, &s3.GetObjectInput{Bucket: &name, Key: &key})
	if err != nil {
		t.Fatalf("the killed run's lock: %v", err)
	}
	var l struct {
		Holder  string `json:"holder"`
		Expires int64  `json:"expires"`
	}
	err = json.NewDecoder(got.Body).Decode(&l)
	got.Body.Close()
	if err != nil || l.Holder == "" {
		t.Fatalf("the killed run's lock: %v (%+v)", err, l)
	}
	l.Expires = time.Now().Add(-time.Minute).Unix()
	body, _ := json.Marshal(l)
	if _, err := srv.Client().PutObject(ctx, &s3.PutObjectInput{Bucket: &name, Key: &key, Body: bytes.NewReader(body)}); err != nil {
		t.Fatal(err)
	}
}
