package s3test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// The conformance tests prove, on the pinned engine, each condition river
// gc relies on (SPEC H3, H4, H5): a refused condition must be a 412 and
// leave the object as it was; an honoured one must do what it says.

// put stores body at key and returns its ETag.
func put(t *testing.T, c *s3.Client, bucket, key, body string) string {
	t.Helper()
	out, err := c.PutObject(context.Background(), &s3.PutObjectInput{Bucket: &bucket, Key: &key, Body: strings.NewReader(body)})
	if err != nil {
		t.Fatalf("put %s: %v", key, err)
	}
	return aws.ToString(out.ETag)
}

// body returns key's content, or "" and false when it does not exist.
func body(t *testing.T, c *s3.Client, bucket, key string) (string, bool) {
	t.Helper()
	out, err := c.GetObject(context.Background(), &s3.GetObjectInput{Bucket: &bucket, Key: &key})
	if IsCode(err, "NoSuchKey", "NotFound") {
		return "", false
	}
	if err != nil {
		t.Fatalf("get %s: %v", key, err)
	}
	defer out.Body.Close()
	b, err := io.ReadAll(out.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), true
}

// status is the HTTP status of a failed SDK call (0 if none).
func status(err error) int {
	var re *awshttp.ResponseError
	if errors.As(err, &re) {
		return re.HTTPStatusCode()
	}
	return 0
}

// wrongETag is a well-formed ETag that no object here has.
const wrongETag = `"00000000000000000000000000000000"`

func TestConformanceDeleteIfMatch(t *testing.T) {
	s := Start(t)
	c, bucket, ctx := s.Client(), s.Bucket(t, false), context.Background()
	etag := put(t, c, bucket, "k", "v1")
	_, err := c.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &bucket, Key: aws.String("k"), IfMatch: aws.String(wrongETag)})
	if status(err) != http.StatusPreconditionFailed {
		t.Fatalf("DeleteObject If-Match wrong ETag: err %v (status %d), want 412", err, status(err))
	}
	if got, ok := body(t, c, bucket, "k"); !ok || got != "v1" {
		t.Fatalf("after a refused delete: %q, %v; want v1 kept", got, ok)
	}
	if _, err := c.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &bucket, Key: aws.String("k"), IfMatch: &etag}); err != nil {
		t.Fatalf("DeleteObject If-Match right ETag: %v", err)
	}
	if _, ok := body(t, c, bucket, "k"); ok {
		t.Fatal("DeleteObject If-Match right ETag left the object")
	}
	// A retried conditional delete (the first went through, its answer
	// was lost) finds no object: it must fail, not recreate or succeed
	// on something else. What this engine answers is recorded here.
	_, err = c.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &bucket, Key: aws.String("k"), IfMatch: &etag})
	if code := status(err); code != http.StatusNotFound && code != http.StatusPreconditionFailed && err != nil {
		t.Errorf("DeleteObject If-Match on a deleted key: %v (status %d), want 404, 412 or success", err, code)
	}
	t.Logf("DeleteObject If-Match on a missing key: status %d (%v)", status(err), err)
}

func TestConformanceDeleteIfMatchAfterRewrite(t *testing.T) {
	s := Start(t)
	c, bucket, ctx := s.Client(), s.Bucket(t, false), context.Background()
	judged := put(t, c, bucket, "k", "scanned")
	put(t, c, bucket, "k", "rewritten after the scan")
	_, err := c.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &bucket, Key: aws.String("k"), IfMatch: &judged})
	if status(err) != http.StatusPreconditionFailed {
		t.Fatalf("delete with the judged ETag of a rewritten object: %v (status %d), want 412", err, status(err))
	}
	if got, _ := body(t, c, bucket, "k"); got != "rewritten after the scan" {
		t.Fatalf("the rewritten object is now %q", got)
	}
}

func TestConformanceDeleteObjectsPerKeyETag(t *testing.T) {
	s := Start(t)
	c, bucket, ctx := s.Client(), s.Bucket(t, false), context.Background()
	right := put(t, c, bucket, "right", "a")
	put(t, c, bucket, "wrong", "b")
	judged := put(t, c, bucket, "rewritten", "c1")
	put(t, c, bucket, "rewritten", "c2")
	out, err := c.DeleteObjects(ctx, &s3.DeleteObjectsInput{Bucket: &bucket, Delete: &types.Delete{Objects: []types.ObjectIdentifier{
		{Key: aws.String("right"), ETag: &right},
		{Key: aws.String("wrong"), ETag: aws.String(wrongETag)},
		{Key: aws.String("rewritten"), ETag: &judged},
	}}})
	if err != nil {
		t.Fatalf("DeleteObjects: %v", err)
	}
	deleted := map[string]bool{}
	for _, d := range out.Deleted {
		deleted[aws.ToString(d.Key)] = true
	}
	failed := map[string]string{}
	for _, e := range out.Errors {
		failed[aws.ToString(e.Key)] = aws.ToString(e.Code)
	}
	if !deleted["right"] || len(deleted) != 1 {
		t.Errorf("deleted %v, want only right", deleted)
	}
	for _, k := range []string{"wrong", "rewritten"} {
		if failed[k] != "PreconditionFailed" {
			t.Errorf("per-key error for %s: %q, want PreconditionFailed (errors: %v)", k, failed[k], failed)
		}
	}
	if _, ok := body(t, c, bucket, "right"); ok {
		t.Error("right is still there")
	}
	if got, _ := body(t, c, bucket, "wrong"); got != "b" {
		t.Errorf("wrong is now %q, want b kept", got)
	}
	if got, _ := body(t, c, bucket, "rewritten"); got != "c2" {
		t.Errorf("rewritten is now %q, want c2 kept", got)
	}
}

func TestConformancePutIfNoneMatch(t *testing.T) {
	s := Start(t)
	c, bucket, ctx := s.Client(), s.Bucket(t, false), context.Background()
	in := func(b string) *s3.PutObjectInput {
		return &s3.PutObjectInput{Bucket: &bucket, Key: aws.String("lock"), Body: strings.NewReader(b), IfNoneMatch: aws.String("*")}
	}
	if _, err := c.PutObject(ctx, in("first holder")); err != nil {
		t.Fatalf("PutObject If-None-Match * on an absent key: %v", err)
	}
	_, err := c.PutObject(ctx, in("second holder"))
	if code := status(err); code != http.StatusPreconditionFailed {
		t.Fatalf("PutObject If-None-Match * on an existing key: %v (status %d), want 412", err, code)
	}
	if got, _ := body(t, c, bucket, "lock"); got != "first holder" {
		t.Fatalf("lock is now %q, want the first holder's", got)
	}
}

func TestConformancePutIfMatch(t *testing.T) {
	s := Start(t)
	c, bucket, ctx := s.Client(), s.Bucket(t, false), context.Background()
	etag := put(t, c, bucket, "store.json", "v1")
	in := func(b, match string) *s3.PutObjectInput {
		return &s3.PutObjectInput{Bucket: &bucket, Key: aws.String("store.json"), Body: strings.NewReader(b), IfMatch: &match}
	}
	_, err := c.PutObject(ctx, in("stale writer", wrongETag))
	if code := status(err); code != http.StatusPreconditionFailed {
		t.Fatalf("PutObject If-Match wrong ETag: %v (status %d), want 412", err, code)
	}
	if got, _ := body(t, c, bucket, "store.json"); got != "v1" {
		t.Fatalf("store.json is now %q, want v1 kept", got)
	}
	if _, err := c.PutObject(ctx, in("v2", etag)); err != nil {
		t.Fatalf("PutObject If-Match right ETag: %v", err)
	}
	if got, _ := body(t, c, bucket, "store.json"); got != "v2" {
		t.Fatalf("store.json is now %q, want v2", got)
	}
	_, err = c.PutObject(ctx, &s3.PutObjectInput{Bucket: &bucket, Key: aws.String("absent.json"), Body: strings.NewReader("x"), IfMatch: &etag})
	if code := status(err); code != http.StatusPreconditionFailed && code != http.StatusNotFound {
		t.Fatalf("PutObject If-Match on an absent key: %v (status %d), want 412 or 404", err, code)
	}
	if _, ok := body(t, c, bucket, "absent.json"); ok {
		t.Fatal("PutObject If-Match on an absent key created it")
	}
}

func TestConformanceVersionedDeleteLeavesMarker(t *testing.T) {
	s := Start(t)
	c, bucket, ctx := s.Client(), s.Bucket(t, true), context.Background()
	etag := put(t, c, bucket, "k", "v1")
	_, err := c.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &bucket, Key: aws.String("k"), IfMatch: aws.String(wrongETag)})
	if status(err) != http.StatusPreconditionFailed {
		t.Fatalf("versioned DeleteObject If-Match wrong ETag: %v (status %d), want 412", err, status(err))
	}
	out, err := c.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &bucket, Key: aws.String("k"), IfMatch: &etag})
	if err != nil {
		t.Fatalf("versioned DeleteObject If-Match right ETag: %v", err)
	}
	if !aws.ToBool(out.DeleteMarker) || aws.ToString(out.VersionId) == "" {
		t.Errorf("versioned delete: DeleteMarker %v, VersionId %q; want a delete marker", aws.ToBool(out.DeleteMarker), aws.ToString(out.VersionId))
	}
	if _, ok := body(t, c, bucket, "k"); ok {
		t.Error("the key still reads after its delete marker")
	}
	v, err := c.ListObjectVersions(ctx, &s3.ListObjectVersionsInput{Bucket: &bucket})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Versions) != 1 || aws.ToString(v.Versions[0].ETag) != etag || len(v.DeleteMarkers) != 1 {
		t.Errorf("versions %d (want the old one, ETag %s), delete markers %d (want 1)", len(v.Versions), etag, len(v.DeleteMarkers))
	}
	// A batch delete on a versioned bucket also leaves a marker per key.
	etag2 := put(t, c, bucket, "k2", "v1")
	del, err := c.DeleteObjects(ctx, &s3.DeleteObjectsInput{Bucket: &bucket, Delete: &types.Delete{Objects: []types.ObjectIdentifier{{Key: aws.String("k2"), ETag: &etag2}}}})
	if err != nil || len(del.Deleted) != 1 || !aws.ToBool(del.Deleted[0].DeleteMarker) {
		t.Errorf("versioned DeleteObjects: err %v, deleted %+v; want one delete marker", err, del)
	}
}

// TestConformanceRetriedBatchAfterItsAnswerWasLost records what a
// retried DeleteObjects finds when the first attempt went through (its
// answer lost): the keys are gone, and their ETag conditions cannot hold.
// Nothing is created, no other object is touched, and the answer tells
// "gone" from "changed": river gc's record depends on it.
func TestConformanceRetriedBatchAfterItsAnswerWasLost(t *testing.T) {
	s := Start(t)
	c, bucket, ctx := s.Client(), s.Bucket(t, false), context.Background()
	etag := put(t, c, bucket, "gone", "x")
	put(t, c, bucket, "other", "y")
	in := &s3.DeleteObjectsInput{Bucket: &bucket, Delete: &types.Delete{Objects: []types.ObjectIdentifier{{Key: aws.String("gone"), ETag: &etag}}}}
	if out, err := c.DeleteObjects(ctx, in); err != nil || len(out.Deleted) != 1 {
		t.Fatalf("first attempt: %v %+v", err, out)
	}
	out, err := c.DeleteObjects(ctx, in)
	if err != nil {
		t.Fatalf("retried DeleteObjects: %v", err)
	}
	var answer []string
	for _, d := range out.Deleted {
		answer = append(answer, "deleted "+aws.ToString(d.Key))
	}
	for _, e := range out.Errors {
		answer = append(answer, aws.ToString(e.Key)+": "+aws.ToString(e.Code))
	}
	// This engine answers NoSuchKey per key (AWS answers the same for a
	// conditional delete of a missing key): a retry that finds its keys
	// gone sees NoSuchKey, never PreconditionFailed.
	if len(answer) != 1 || answer[0] != "gone: NoSuchKey" {
		t.Errorf("retried DeleteObjects with the ETag of a deleted key: %v, want [gone: NoSuchKey]", answer)
	}
	if _, ok := body(t, c, bucket, "gone"); ok {
		t.Error("the retry recreated the key")
	}
	if got, _ := body(t, c, bucket, "other"); got != "y" {
		t.Errorf("other = %q", got)
	}
}
