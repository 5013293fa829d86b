//go:build linux

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/plangate-gc/plangate-gc/internal/s3test"
)

// hostileStores are entry stores with issue 24's traps, each a case of
// its own: key-case twins and repeated keys, invalid UTF-8 and lone
// surrogates in ids, a BOM (an index Node refuses), CRLF, NEL, LS and a
// BOM-only last line in the ledger.
var hostileStores = map[string]map[string]string{
	"key twins": {".river/memory/index.json": `{"version":"1","entries":[
{"id":"r1","type":"review","Type":"adr","title":"t","content":"c","metadata":{"createdAt":"2024-01-01T00:00:00Z"}},
{"id":"r2","type":"adr","type":"review","Active":false,"metadata":{"createdAt":"2024-01-01T00:00:00Z","CreatedAt":"2026-11-30T00:00:00Z"}},
{"id":"k1","type":"pattern","EXPIRESAT":"2020-01-01T00:00:00Z","metadata":{"createdAt":"2020-01-01T00:00:00Z"}}]}
`},
	"odd ids": {".river/memory/index.json": "{\"version\":\"1\",\"entries\":[\n" +
		"{\"id\":\"\xe2\x82\",\"type\":\"review\",\"metadata\":{\"createdAt\":\"2024-01-01T00:00:00Z\"}},\n" +
		"{\"id\":\"\\ud800\",\"type\":\"review\",\"metadata\":{\"createdAt\":\"2024-01-01T00:00:00Z\"}},\n" +
		"{\"id\":\"\\udfff\",\"type\":\"review\",\"metadata\":{\"createdAt\":\"2026-11-30T00:00:00Z\"}},\n" +
		"{\"id\":\"a\u2028b\",\"type\":\"review\",\"metadata\":{\"createdAt\":\"2024-01-01T00:00:00Z\"}}]}\n"},
	"BOM index": {".river/memory/index.json": "\ufeff" + `{"version":"1","entries":[{"id":"r1","type":"review","metadata":{"createdAt":"2024-01-01T00:00:00Z"}}]}`},
	"ledger line ends": {"artifacts/evals/results.jsonl": "{\"timestamp\":\"2024-01-01T00:00:00Z\",\"a\":1}\r\n" +
		"{\"timestamp\":\"2024-01-02T00:00:00Z\",\"a\":2}\u0085\n" +
		"{\"timestamp\":\"2024-01-03T00:00:00Z\",\"a\":3}\u2028\n" +
		"{\"timestamp\":\"2024-01-04T00:00:00Z\",\"a\":\"\xff\"}\n" +
		"{\"timestamp\":\"2026-11-29T00:00:00Z\",\"a\":5}\n" +
		"{\"timestamp\":\"2026-11-30T00:00:00Z\",\"a\":6}\n\ufeff\n"},
}

// TestBucketTwinHostileStores (SPEC H2, B6): the stores with
// issue 24's traps, judged and rewritten on disk and in a bucket, give
// the same removed[], errors[] and warnings, and the same bytes after
// --force.
func TestBucketTwinHostileStores(t *testing.T) {
	t.Parallel()
	srv := s3test.Start(t)
	env := bucketEnv(srv)
	args := []string{"--force", "--json", "--now", "2026-12-01T00:00:00Z", "--scope", "memory-entries", "--scope", "eval-ledger", "--retention-days", "90"}
	removed := 0
	for name, stores := range hostileStores {
		t.Run(name, func(t *testing.T) {
			bucket, dir := srv.Bucket(t, false), t.TempDir()
			tree := map[string]string{".river/tmp/.keep": ""}
			for k, v := range stores {
				tree[k] = v
			}
			upload(t, srv, bucket, "h/", dir, tree)
			disk, derr, dcode := runBucketGC(t, env, append([]string{"--root", dir}, args...)...)
			obj, oerr, ocode := runBucketGC(t, env, append([]string{"--root", "s3://" + bucket + "/h"}, args...)...)
			if dcode != ocode {
				t.Errorf("exit %d (disk), %d (bucket)\n%s\n%s", dcode, ocode, derr, oerr)
			}
			same := []string{"removed", "errors", "keptSummary"}
			d, o := fields(t, disk, same...), fields(t, obj, same...)
			removed += len(readRecord(t, disk).Removed)
			for _, f := range same {
				if d[f] != o[f] {
					t.Errorf("%s differs\ndisk:   %s\nbucket: %s", f, d[f], o[f])
				}
			}
			for k := range stores {
				want, _ := os.ReadFile(filepath.Join(dir, k))
				if got := objectBytes(t, srv, bucket, "h/"+k); !bytes.Equal(want, got) {
					t.Errorf("%s after --force:\ndisk:   %q\nbucket: %q", k, want, got)
				}
			}
		})
	}
	if removed == 0 {
		t.Errorf("no case removed an entry: the test exercises no rewrite")
	}
}

// objectBytes reads the object at key whole, straight from the engine.
func objectBytes(t *testing.T, srv *s3test.Server, bucket, key string) []byte {
	t.Helper()
	out, err := srv.Client().GetObject(context.Background(), &s3.GetObjectInput{Bucket: &bucket, Key: aws.String(key)})
	if err != nil {
		t.Fatal(err)
	}
	defer out.Body.Close()
	var b bytes.Buffer
	if _, err := b.ReadFrom(out.Body); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
