//go:build linux

package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/s3test"
)

// TestBucketStoreHint (SPEC B9): on an s3:// root the hint names what
// the stores the default scopes leave alone would reclaim, however large
// (multi-megabyte stores, as a year of upstream's writers leaves them),
// on a dry-run and after --force, with the same lines as the same tree
// on disk.
func TestBucketStoreHint(t *testing.T) {
	t.Parallel()
	srv := s3test.Start(t)
	name := srv.Bucket(t, false)
	var index, ledger bytes.Buffer
	writeUpstreamIndex(&index, 4000)
	writeUpstreamLedger(&ledger, 1500)
	tree := map[string]string{".river/memory/index.json": index.String(), "artifacts/evals/results.jsonl": ledger.String(),
		".river/tmp/a.tmp": "tmp"}
	dir := t.TempDir()
	upload(t, srv, name, "org/repo/", dir, tree)
	env := bucketEnv(srv)
	hint := regexp.MustCompile(`(?m)^River Review's stores hold more.*\n(  scope .*\n)+`)
	disk, _, code := runBucketGC(t, env, "--root", dir, "--now", hintNow, "--lang", "en")
	want := hint.Find(disk)
	if code != 0 || !bytes.Contains(want, []byte("  scope memory-entries: ")) || !bytes.Contains(want, []byte("  scope eval-ledger: ")) {
		t.Fatalf("on disk: exit %d, hint %q:\n%s", code, want, disk)
	}
	for _, mode := range [][]string{nil, {"--force"}} {
		out, stderr, code := runBucketGC(t, env, append([]string{"--root", "s3://" + name + "/org/repo", "--now", hintNow, "--lang", "en"}, mode...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s\n%s", mode, code, out, stderr)
		}
		if got := hint.Find(out); !bytes.Equal(got, want) || strings.Contains(string(out), "too large") {
			t.Errorf("%v: the bucket's hint\n%s\nwant the disk's\n%s", mode, got, want)
		}
	}
	if keys := keysIn(t, srv, name, "org/repo/.river/memory/"); len(keys) != 1 {
		t.Errorf("the hint touched the store: %v", keys)
	}
}
