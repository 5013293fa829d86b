package s3test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		method, target string
		kind           Kind
		bucket, key    string
	}{
		{"GET", "/b?list-type=2&prefix=a%2F", KindList, "b", ""},
		{"GET", "/b/", KindList, "b", ""},
		{"GET", "/b?versions&prefix=a", KindListVersions, "b", ""},
		{"GET", "/b?versioning", KindOther, "b", ""},
		{"GET", "/b/a/c.json", KindGet, "b", "a/c.json"},
		{"HEAD", "/b/a/c.json", KindHead, "b", "a/c.json"},
		{"PUT", "/b/k", KindPut, "b", "k"},
		{"PUT", "/b", KindOther, "b", ""},
		{"DELETE", "/b/k", KindDelete, "b", "k"},
		{"DELETE", "/b", KindOther, "b", ""},
		{"POST", "/b?delete", KindDeleteBatch, "b", ""},
		{"POST", "/b/k?uploads", KindOther, "b", "k"},
		{"GET", "/", KindOther, "", ""},
	} {
		u, _ := url.Parse(tc.target)
		kind, bucket, key := classify(&http.Request{Method: tc.method, URL: u})
		if kind != tc.kind || bucket != tc.bucket || key != tc.key {
			t.Errorf("%s %s = %s %q %q, want %s %q %q", tc.method, tc.target, kind, bucket, key, tc.kind, tc.bucket, tc.key)
		}
	}
}

func TestFaultHits(t *testing.T) {
	for _, tc := range []struct {
		f        Fault
		kind     Kind
		n, total int
		keys     []string
		want     bool
	}{
		{SlowDown(KindDeleteBatch, 1), KindDeleteBatch, 1, 9, nil, true},
		{SlowDown(KindDeleteBatch, 1), KindDeleteBatch, 2, 10, nil, false},
		{SlowDown(KindDeleteBatch, 1), KindDelete, 1, 9, nil, false},
		{DropResponse(KindDelete, 0), KindDelete, 7, 9, nil, true},
		{DropRequest("", 3), KindGet, 1, 3, nil, true},
		{DropRequest("", 3), KindGet, 3, 4, nil, false},
		{StripConditions(), KindPut, 5, 5, []string{"k"}, true},
		{Before(KindDeleteBatch, 0, nil).OnKey("b"), KindDeleteBatch, 1, 1, []string{"a", "b"}, true},
		{Before(KindDeleteBatch, 0, nil).OnKey("c"), KindDeleteBatch, 1, 1, []string{"a", "b"}, false},
		{Before(KindPut, 0, nil).OnKeyPrefix("r/.river/gc-journal/"), KindPut, 1, 1, []string{"r/.river/gc-journal/x-1"}, true},
		{Before(KindPut, 0, nil).OnKeyPrefix("r/.river/gc-journal/"), KindPut, 1, 1, []string{"r/.river/gc-lock"}, false},
	} {
		if got := tc.f.hits(tc.kind, tc.n, tc.total, tc.keys); got != tc.want {
			t.Errorf("%s hits %s #%d (of all #%d) %v = %v, want %v", tc.f, tc.kind, tc.n, tc.total, tc.keys, got, tc.want)
		}
	}
}

// noRetry makes a client show each fault instead of retrying it.
func noRetry(o *s3.Options) { o.RetryMaxAttempts = 1 }

func TestProxyForwardsAndCounts(t *testing.T) {
	s := Start(t)
	bucket := s.Bucket(t, false)
	p := Proxy(t, s)
	c, ctx := s.ClientAt(p.URL), context.Background()
	var ids []types.ObjectIdentifier
	for _, k := range []string{"a", "b", "c"} {
		etag := put(t, c, bucket, k, k)
		ids = append(ids, types.ObjectIdentifier{Key: aws.String(k), ETag: aws.String(etag)})
	}
	if _, err := c.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: &bucket}); err != nil {
		t.Fatal(err)
	}
	if got, _ := body(t, c, bucket, "b"); got != "b" {
		t.Fatalf("get b through the proxy = %q", got)
	}
	out, err := c.DeleteObjects(ctx, &s3.DeleteObjectsInput{Bucket: &bucket, Delete: &types.Delete{Objects: ids}})
	if err != nil || len(out.Deleted) != 3 {
		t.Fatalf("DeleteObjects through the proxy: %v, %+v", err, out)
	}
	for kind, want := range map[Kind]int{KindPut: 3, KindList: 1, KindGet: 1, KindDeleteBatch: 1, KindDelete: 0} {
		if got := p.Count(kind); got != want {
			t.Errorf("Count(%s) = %d, want %d", kind, got, want)
		}
	}
	if d := p.Deleted(); d["a"] != 1 || d["b"] != 1 || d["c"] != 1 || len(d) != 3 {
		t.Errorf("Deleted() = %v, want a, b, c once", d)
	}
	last := p.Requests()[p.Total()-1]
	if last.Kind != KindDeleteBatch || !slices.Equal(last.Keys, []string{"a", "b", "c"}) || len(last.Conditions) != 3 || last.Fault != "" {
		t.Errorf("logged batch = %+v", last)
	}
}

func TestProxyAnswersErrors(t *testing.T) {
	s := Start(t)
	bucket := s.Bucket(t, false)
	for _, f := range []Fault{
		Answer(KindPut, 1, http.StatusInternalServerError, "InternalError"),
		Answer(KindPut, 1, http.StatusServiceUnavailable, "ServiceUnavailable"),
		SlowDown(KindPut, 1),
	} {
		t.Run(f.Code, func(t *testing.T) {
			p := Proxy(t, s, f)
			key := "k-" + f.Code
			_, err := s.ClientAt(p.URL, noRetry).PutObject(context.Background(), &s3.PutObjectInput{Bucket: &bucket, Key: &key, Body: strings.NewReader("x")})
			if status(err) != f.Status || !IsCode(err, f.Code) {
				t.Fatalf("put through %s: %v, want %d %s", f, err, f.Status, f.Code)
			}
			if _, ok := body(t, s.Client(), bucket, key); ok {
				t.Fatal("an answered request reached the engine")
			}
			// The SDK's standard retryer retries 5xx and throttling: behind
			// a fresh proxy, the first attempt is refused, the second stored.
			p = Proxy(t, s, f)
			put(t, s.ClientAt(p.URL), bucket, key, "x")
			if got := p.Count(KindPut); got != 2 {
				t.Errorf("puts seen: %d, want 2 (the refused attempt, the retry)", got)
			}
			if got, _ := body(t, s.Client(), bucket, key); got != "x" {
				t.Errorf("after the retry: %q", got)
			}
		})
	}
}

func TestProxyDropsRequest(t *testing.T) {
	s := Start(t)
	bucket := s.Bucket(t, false)
	p := Proxy(t, s, DropRequest(KindPut, 1))
	_, err := s.ClientAt(p.URL, noRetry).PutObject(context.Background(), &s3.PutObjectInput{Bucket: &bucket, Key: aws.String("k"), Body: strings.NewReader("x")})
	if err == nil {
		t.Fatal("a dropped put succeeded")
	}
	if _, ok := body(t, s.Client(), bucket, "k"); ok {
		t.Fatal("a dropped request reached the engine")
	}
	if r := p.Requests(); len(r) != 1 || r[0].Status != 0 || r[0].Fault != "drop request on put #1" {
		t.Errorf("log = %+v", r)
	}
}

// TestProxyDropsResponseOfConditionalDelete shows what river gc relies on
// when an answer is lost: the engine deleted, the client does not know,
// and the SDK's retry of the same conditional delete removes nothing.
func TestProxyDropsResponseOfConditionalDelete(t *testing.T) {
	s := Start(t)
	bucket := s.Bucket(t, false)
	etag := put(t, s.Client(), bucket, "k", "x")
	p := Proxy(t, s, DropResponse(KindDelete, 1))
	_, err := s.ClientAt(p.URL).DeleteObject(context.Background(), &s3.DeleteObjectInput{Bucket: &bucket, Key: aws.String("k"), IfMatch: &etag})
	t.Logf("conditional delete, first answer cut, SDK retries: %v", err)
	if _, ok := body(t, s.Client(), bucket, "k"); ok {
		t.Fatal("the object survived a delete the engine acted on")
	}
	if got := p.Count(KindDelete); got < 2 {
		t.Errorf("deletes seen: %d, want the cut one and the SDK's retry", got)
	}
	if d := p.Deleted(); d["k"] != 1 {
		t.Errorf("engine deleted k %d times, want 1", d["k"])
	}
}

func TestProxyStripsConditions(t *testing.T) {
	s := Start(t)
	bucket := s.Bucket(t, false)
	direct := s.Client()
	put(t, direct, bucket, "single", "x")
	put(t, direct, bucket, "batch", "y")
	put(t, direct, bucket, "lock", "first")
	p := Proxy(t, s, StripConditions())
	c, ctx := s.ClientAt(p.URL, noRetry), context.Background()
	if _, err := c.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &bucket, Key: aws.String("single"), IfMatch: aws.String(wrongETag)}); err != nil {
		t.Fatalf("stripped DeleteObject: %v", err)
	}
	out, err := c.DeleteObjects(ctx, &s3.DeleteObjectsInput{Bucket: &bucket, Delete: &types.Delete{Objects: []types.ObjectIdentifier{{Key: aws.String("batch"), ETag: aws.String(wrongETag)}}}})
	if err != nil || len(out.Deleted) != 1 {
		t.Fatalf("stripped DeleteObjects: %v, %+v", err, out)
	}
	if _, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: &bucket, Key: aws.String("lock"), Body: strings.NewReader("second"), IfNoneMatch: aws.String("*")}); err != nil {
		t.Fatalf("stripped PutObject If-None-Match: %v", err)
	}
	for _, k := range []string{"single", "batch"} {
		if _, ok := body(t, direct, bucket, k); ok {
			t.Errorf("%s survived a stripped delete with a wrong ETag", k)
		}
	}
	if got, _ := body(t, direct, bucket, "lock"); got != "second" {
		t.Errorf("lock = %q after a stripped If-None-Match put, want it overwritten", got)
	}
	for _, r := range p.Requests() {
		if len(r.Conditions) == 0 || !strings.Contains(r.Fault, "strip conditions") {
			t.Errorf("logged %+v: want the client's condition and the strip named", r)
		}
	}
}

func TestProxyRewritesBetweenScanAndDelete(t *testing.T) {
	s := Start(t)
	bucket := s.Bucket(t, false)
	direct := s.Client()
	etagA := put(t, direct, bucket, "a", "old a")
	etagB := put(t, direct, bucket, "b", "old b")
	rewrite := Before(KindDeleteBatch, 0, func(r Request) {
		put(t, direct, r.Bucket, "b", "new b, written after the scan")
	}).OnKey("b").Times(1)
	p := Proxy(t, s, rewrite, Delay(KindDeleteBatch, 10*time.Millisecond))
	out, err := s.ClientAt(p.URL).DeleteObjects(context.Background(), &s3.DeleteObjectsInput{Bucket: &bucket, Delete: &types.Delete{Objects: []types.ObjectIdentifier{
		{Key: aws.String("a"), ETag: &etagA}, {Key: aws.String("b"), ETag: &etagB},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Deleted) != 1 || aws.ToString(out.Deleted[0].Key) != "a" || len(out.Errors) != 1 || aws.ToString(out.Errors[0].Code) != "PreconditionFailed" {
		t.Errorf("batch after the rewrite: deleted %d, errors %+v; want a deleted, b refused", len(out.Deleted), out.Errors)
	}
	if got, _ := body(t, direct, bucket, "b"); got != "new b, written after the scan" {
		t.Errorf("b = %q", got)
	}
	if r := p.Requests(); len(r) != 1 || !strings.Contains(r[0].Fault, "hook") || !strings.Contains(r[0].Fault, "delay 10ms") {
		t.Errorf("log = %+v", r)
	}
}
