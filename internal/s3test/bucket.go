package s3test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
)

// Client returns an S3 client of the official SDK for s, configured from
// s alone (not from the environment: the caller's AWS_* variables,
// profiles and AWS_CA_BUNDLE play no part), with path-style addressing
// and the SDK's standard retries.
func (s *Server) Client() *s3.Client { return s.ClientAt(s.Endpoint) }

// ClientAt is Client with another endpoint (a FaultProxy's URL in front
// of the same engine, say) and options (o.RetryMaxAttempts = 1 to see
// each fault instead of the SDK's retries).
func (s *Server) ClientAt(endpoint string, optFns ...func(*s3.Options)) *s3.Client {
	return s3.New(s3.Options{
		Region:       s.Region,
		BaseEndpoint: aws.String(endpoint),
		UsePathStyle: true,
		Credentials:  credentials.NewStaticCredentialsProvider(s.AccessKey, s.SecretKey, ""),
	}, optFns...)
}

var bucketSeq atomic.Int64

// Bucket creates a fresh, empty bucket (versioning enabled when
// versioned) and returns its name; t's cleanup empties it (every version
// and delete marker) and removes it. Names are unique per process and
// per run: t-<pid-ish random>-<sequence>.
func (s *Server) Bucket(t testing.TB, versioned bool) string {
	t.Helper()
	name := fmt.Sprintf("t-%s-%d", bucketRun, bucketSeq.Add(1))
	c := s.Client()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: &name}); err != nil {
		t.Fatalf("creating bucket %s: %v", name, err)
	}
	if versioned {
		_, err := c.PutBucketVersioning(ctx, &s3.PutBucketVersioningInput{
			Bucket:                  &name,
			VersioningConfiguration: &types.VersioningConfiguration{Status: types.BucketVersioningStatusEnabled},
		})
		if err != nil {
			t.Fatalf("enabling versioning on %s: %v", name, err)
		}
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if err := RemoveBucket(ctx, c, name); err != nil {
			t.Errorf("removing bucket %s: %v", name, err)
		}
	})
	return name
}

// bucketRun keeps two processes' bucket names apart when they share an
// engine (PLANGATE_GC_WEED with a server started by hand is not
// supported, but names stay unique anyway).
var bucketRun = randomHex(3)

// RemoveBucket deletes every object version and delete marker of bucket
// in pages of 1000 (a bounded loop: it stops after a million keys) and
// then the bucket.
func RemoveBucket(ctx context.Context, c *s3.Client, bucket string) error {
	for page := 0; page < 1000; page++ {
		out, err := c.ListObjectVersions(ctx, &s3.ListObjectVersionsInput{Bucket: &bucket, EncodingType: types.EncodingTypeUrl})
		if err != nil {
			return err
		}
		var ids []types.ObjectIdentifier
		for _, v := range out.Versions {
			ids = append(ids, types.ObjectIdentifier{Key: v.Key, VersionId: v.VersionId})
		}
		for _, m := range out.DeleteMarkers {
			ids = append(ids, types.ObjectIdentifier{Key: m.Key, VersionId: m.VersionId})
		}
		if len(ids) > 0 && out.EncodingType != types.EncodingTypeUrl {
			// This engine's version listing ignores EncodingType: its
			// current keys come from ListObjectsV2, which honours it.
			if ids, err = unsafeKeys(ctx, c, bucket, ids); err != nil {
				return err
			}
		}
		if len(ids) == 0 {
			_, err := c.DeleteBucket(ctx, &s3.DeleteBucketInput{Bucket: &bucket})
			return err
		}
		for len(ids) > 0 {
			n := min(len(ids), 1000)
			del, err := c.DeleteObjects(ctx, &s3.DeleteObjectsInput{
				Bucket: &bucket,
				Delete: &types.Delete{Objects: ids[:n], Quiet: aws.Bool(true)},
			})
			if err != nil {
				return err
			}
			if len(del.Errors) > 0 {
				e := del.Errors[0]
				return fmt.Errorf("deleting %s (version %s): %s %s", aws.ToString(e.Key), aws.ToString(e.VersionId), aws.ToString(e.Code), aws.ToString(e.Message))
			}
			ids = ids[n:]
		}
	}
	return fmt.Errorf("bucket %s: still not empty after 1000 pages", bucket)
}

// unsafeKeys deletes, one DeleteObject each, the objects whose keys XML
// cannot carry (U+0001, say: a listing shows it, and a DeleteObjects body
// names it, as U+FFFD), found by a URL-encoded ListObjectsV2; it returns
// ids without the versions that listing misnamed.
func unsafeKeys(ctx context.Context, c *s3.Client, bucket string, ids []types.ObjectIdentifier) ([]types.ObjectIdentifier, error) {
	out, err := c.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: &bucket, EncodingType: types.EncodingTypeUrl})
	if err != nil {
		return nil, err
	}
	deleted := false
	for _, o := range out.Contents {
		k, err := url.QueryUnescape(aws.ToString(o.Key))
		if err != nil {
			return nil, fmt.Errorf("listed key %q: %w", aws.ToString(o.Key), err)
		}
		if strings.ContainsFunc(k, func(r rune) bool { return r < 0x20 && r != '\t' && r != '\n' && r != '\r' }) {
			if _, err := c.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &bucket, Key: &k}); err != nil {
				return nil, err
			}
			deleted = true
		}
	}
	if !deleted {
		return ids, nil
	}
	return slices.DeleteFunc(ids, func(id types.ObjectIdentifier) bool {
		return strings.ContainsRune(aws.ToString(id.Key), utf8.RuneError)
	}), nil
}

// waitReady polls, in a bounded loop, until the engine creates a bucket,
// stores an object and deletes both: the S3 gateway, the filer and a
// volume server are then all up.
func (e *Engine) waitReady(ctx context.Context) error {
	c := e.Client()
	bucket := "plangate-gc-ready"
	var last error
	for {
		if e.Exited() {
			return fmt.Errorf("weed exited: %v", e.waitErr)
		}
		if last = e.probe(ctx, c, bucket); last == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (last: %v)", ctx.Err(), last)
		case <-e.done:
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// probe is one round of waitReady.
func (e *Engine) probe(ctx context.Context, c *s3.Client, bucket string) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	_, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: &bucket})
	if err != nil && !IsCode(err, "BucketAlreadyOwnedByYou", "BucketAlreadyExists") {
		return err
	}
	key := "probe"
	if _, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: &bucket, Key: &key, Body: strings.NewReader("ready")}); err != nil {
		return err
	}
	return RemoveBucket(ctx, c, bucket)
}

// IsCode reports whether err is an S3 API error with one of codes.
func IsCode(err error, codes ...string) bool {
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		return false
	}
	for _, c := range codes {
		if ae.ErrorCode() == c {
			return true
		}
	}
	return false
}

// ExpireLease rewrites the lease lock object at key (same holder) with a
// lease that ran out a minute ago: what a killed run's lock looks like
// once its lease has passed, so that the next run may know it is over.
func (s *Server) ExpireLease(t testing.TB, bucket, key string) {
	t.Helper()
	ctx := context.Background()
	out, err := s.Client().GetObject(ctx, &s3.GetObjectInput{Bucket: &bucket, Key: &key})
	if err != nil {
		t.Fatalf("the lock %s: %v", key, err)
	}
	var l struct {
		Holder  string `json:"holder"`
		Expires int64  `json:"expires"`
	}
	err = json.NewDecoder(out.Body).Decode(&l)
	out.Body.Close()
	if err != nil || l.Holder == "" {
		t.Fatalf("the lock %s: %v (%+v)", key, err, l)
	}
	l.Expires = time.Now().Add(-time.Minute).Unix()
	b, _ := json.Marshal(l)
	if _, err := s.Client().PutObject(ctx, &s3.PutObjectInput{Bucket: &bucket, Key: &key, Body: strings.NewReader(string(b))}); err != nil {
		t.Fatalf("the lock %s: %v", key, err)
	}
}
