// Package s3 is river gc's S3 backend (SPEC Part H): a
// backend.Backend over one bucket and key prefix, on the official AWS SDK
// for Go v2, configured from the SDK's standard chain (AWS_ENDPOINT_URL_S3,
// AWS_REGION, keys, profiles, AWS_CA_BUNDLE), with the SDK's retries and
// backoff on throttling and 5xx. Every delete and overwrite carries the
// ETag it was judged with, so a retried request never removes or replaces
// a newer object. Requests are counted by kind for the record.
//
// bucket decides nothing and words nothing; credentials never leave the
// SDK (no error or count carries them).
package s3

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go/logging"
	"github.com/aws/smithy-go/middleware"
)

// Scheme starts every bucket root: s3://BUCKET/PREFIX.
const Scheme = "s3://"

// IsRoot reports whether a --root names a bucket.
func IsRoot(root string) bool { return strings.HasPrefix(root, Scheme) }

// ErrBadRoot means an s3:// root without a valid bucket name.
var ErrBadRoot = errors.New("not s3://BUCKET/PREFIX")

// ParseRoot splits s3://BUCKET/PREFIX into the bucket and the key prefix
// of the root ("" or ending in '/'). A prefix with an empty, "." or ".."
// segment (a leading "//", an inner "//", a trailing "//") is
// ErrBadRoot.
func ParseRoot(root string) (bucketName, prefix string, err error) {
	rest, ok := strings.CutPrefix(root, Scheme)
	if !ok {
		return "", "", ErrBadRoot
	}
	bucketName, prefix, _ = strings.Cut(rest, "/")
	if bucketName == "" || strings.ContainsAny(bucketName, "?#% ") || url.PathEscape(bucketName) != bucketName {
		return "", "", ErrBadRoot
	}
	// S3 keys are byte strings: "//org/repo" is the prefix "/org/repo/",
	// not "org/repo/". Only one trailing '/' is dropped; any other empty
	// segment is refused rather than collapsed (decision 228).
	if strings.HasPrefix(prefix, "/") {
		return "", "", ErrBadRoot
	}
	prefix = strings.TrimSuffix(prefix, "/")
	for _, seg := range strings.Split(prefix, "/") {
		if prefix != "" && (seg == "" || seg == "." || seg == "..") {
			return "", "", ErrBadRoot
		}
	}
	if prefix != "" {
		prefix += "/"
	}
	return bucketName, prefix, nil
}

// Bucket is a backend.Backend over one bucket below one key prefix: its
// keys are relative to the prefix.
type Bucket struct {
	client *s3.Client
	name   string
	prefix string
	// Concurrency bounds the requests in flight of one call (metadata
	// reads, settling a batch), and the DeleteObjects requests in flight
	// of all Delete calls together (read when Delete is first called).
	Concurrency int

	// SingleCanary is the key (relative to the root) of the canary
	// object that proves DeleteObject If-Match before the first key XML
	// cannot carry is deleted that way; unset, such keys are not deleted.
	SingleCanary string
	singleOnce   sync.Once
	singleErr    error

	slotsOnce   sync.Once
	deleteSlots chan struct{}

	mu     sync.Mutex
	counts map[string]int
}

// Open connects to the bucket of root (s3://BUCKET/PREFIX) with the SDK's
// standard configuration chain. Path-style addressing is used whenever an
// endpoint is configured (loopback and most S3-compatible servers need
// it), or when AWS_S3_USE_PATH_STYLE is "true". Nothing is requested yet.
func Open(ctx context.Context, root string) (*Bucket, error) {
	name, prefix, err := ParseRoot(root)
	if err != nil {
		return nil, err
	}
	readFileEndpoints()
	timeout, err := attemptTimeout()
	if err != nil {
		return nil, err
	}
	cfg, err := config.LoadDefaultConfig(ctx, config.WithHTTPClient(httpClient(timeout)),
		config.WithLogger(logging.Nop{})) // river gc words its own failures; the SDK's warnings are not ours to print
	if err != nil {
		return nil, fmt.Errorf("AWS configuration: %w", redact(err))
	}
	if cfg.Region == "" {
		return nil, ErrNoRegion
	}
	cfg.HTTPClient = noRedirects(cfg.HTTPClient)
	if cfg.Credentials != nil {
		cfg.Credentials = aws.NewCredentialsCache(guardedCredentials{cfg.Credentials})
	}
	b := &Bucket{name: name, prefix: prefix, Concurrency: 16, counts: map[string]int{}}
	pathStyle := os.Getenv("AWS_S3_USE_PATH_STYLE") == "true"
	b.client = s3.NewFromConfig(cfg, func(o *s3.Options) {
		o.UsePathStyle = pathStyle || o.BaseEndpoint != nil || os.Getenv("AWS_ENDPOINT_URL_S3") != "" || os.Getenv("AWS_ENDPOINT_URL") != ""
		if o.BaseEndpoint != nil { // resolved from any source: hide it too
			fileEndpoints.Lock()
			fileEndpoints.urls = append(fileEndpoints.urls, *o.BaseEndpoint)
			fileEndpoints.Unlock()
		}
		// Checksums only when an operation requires them: S3-compatible
		// servers differ in the newer default checksum headers.
		o.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenRequired
		o.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
		o.APIOptions = append(o.APIOptions, b.countRequests)
	})
	return b, nil
}

// Name is the bucket's name.
func (b *Bucket) Name() string { return b.name }

// Root is the root as s3://BUCKET/PREFIX (no trailing slash).
func (b *Bucket) Root() string { return Scheme + b.name + "/" + strings.TrimSuffix(b.prefix, "/") }

// countRequests counts every HTTP attempt by operation (a retried request
// counts each time it is sent): it sits after the SDK's retry loop.
func (b *Bucket) countRequests(stack *middleware.Stack) error {
	return stack.Finalize.Add(middleware.FinalizeMiddlewareFunc("RiverGCCount",
		func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
			op := middleware.GetOperationName(ctx)
			if n, ok := ctx.Value(attemptsKey{}).(*atomic.Int32); ok {
				n.Add(1)
			}
			b.mu.Lock()
			b.counts[op]++
			b.mu.Unlock()
			return next.HandleFinalize(ctx, in)
		}), middleware.After)
}

// attemptsKey keys a call's attempt counter in its context.
type attemptsKey struct{}

// withAttempts returns ctx with a counter of the HTTP attempts of the
// call made with it (countRequests adds to it).
func withAttempts(ctx context.Context) (context.Context, *atomic.Int32) {
	n := new(atomic.Int32)
	return context.WithValue(ctx, attemptsKey{}, n), n
}

// Requests returns how many requests were sent, by operation name
// (ListObjectsV2, GetObject, PutObject, DeleteObjects, ...).
func (b *Bucket) Requests() map[string]int {
	b.mu.Lock()
	defer b.mu.Unlock()
	m := make(map[string]int, len(b.counts))
	for k, v := range b.counts {
		m[k] = v
	}
	return m
}

// Versioned reports whether the bucket keeps old versions (versioning
// enabled or suspended): a delete then leaves a delete marker and frees
// no space until the noncurrent versions expire (SPEC H5).
func (b *Bucket) Versioned(ctx context.Context) (bool, error) {
	out, err := b.client.GetBucketVersioning(ctx, &s3.GetBucketVersioningInput{Bucket: &b.name})
	if err != nil {
		return false, classify(err)
	}
	return out.Status != "", nil
}
