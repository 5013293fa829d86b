//go:build linux

package main

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	bucket "github.com/plangate-gc/plangate-gc/internal/backend/s3"
	"github.com/plangate-gc/plangate-gc/internal/s3test"
)

// endlessList answers every ListObjectsV2 below prefix with one fresh
// key, "truncated", and a fresh continuation token: a listing that does
// not end (each page looks like the next of a real one) before pages
// pages, so that a client that follows it for ever fails the test in
// bounded time.
func endlessList(prefix string, pages int) func(http.ResponseWriter, *http.Request, []byte) {
	return func(w http.ResponseWriter, r *http.Request, _ []byte) {
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Query().Get("continuation-token"), "t"))
		body := fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult><Name>b</Name><Prefix>%s</Prefix><KeyCount>1</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>%t</IsTruncated>`+
			`<NextContinuationToken>t%d</NextContinuationToken><Contents><Key>%s%012d.tmp</Key><LastModified>2024-01-01T00:00:00.000Z</LastModified>`+
			`<ETag>"0123456789abcdef0123456789abcdef"</ETag><Size>1</Size></Contents></ListBucketResult>`, prefix, n < pages, n+1, prefix, n)
		w.Header().Set("Content-Type", "application/xml")
		w.Write([]byte(body))
	}
}

// TestBucketEndlessListingEnds (SPEC B8 4): a listing that is always
// truncated, with fresh tokens and fresh keys, ends at the listing's
// bound as an errors[] entry naming the scope's directory (exit 1), after
// at most MaxListPages requests; nothing of that directory is judged.
func TestBucketEndlessListingEnds(t *testing.T) {
	t.Parallel()
	srv := s3test.Fake(t)
	name := srv.Bucket(t, false)
	upload(t, srv, name, "r/", "", map[string]string{".river/tmp/a.tmp": "a"})
	p := s3test.Proxy(t, srv, s3test.Reply(s3test.KindList, endlessList("r/.river/tmp/", 3*bucket.MaxListPages)).If(func(r s3test.Request) bool {
		return r.Prefix == "r/.river/tmp/"
	}))
	out, stderr, code := runBucketGC(t, withEndpoint(bucketEnv(srv), p.URL), "--json", "--root", "s3://"+name+"/r", "--now", future, "--scope", "tmp")
	rec := readRecord(t, out)
	if code != 1 || len(rec.Errors) == 0 || rec.Errors[0].Path != ".river/tmp" || !strings.Contains(rec.Errors[0].Message, "does not end") || len(rec.Removed) != 0 {
		t.Errorf("exit %d, errors %+v, removed %d; want 1, the listing named, nothing judged\n%s", code, rec.Errors, len(rec.Removed), stderr)
	}
	if n := p.Count(s3test.KindList); n > bucket.MaxListPages+10 {
		t.Errorf("%d listings sent; want at most the bound's %d and a few", n, bucket.MaxListPages)
	}
}
