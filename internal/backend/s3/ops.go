package s3

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"

	"github.com/plangate-gc/plangate-gc/internal/backend"
)

// PageSize is the keys per ListObjectsV2 page and per DeleteObjects
// batch: S3's maximum for both (SPEC H6).
const PageSize = 1000

// List lists every object below prefix (relative to the root), in key
// order, in pages of PageSize. An empty object whose key ends in '/' (a
// folder marker, as consoles create) is not an object; one holding bytes
// is listed like any other, so that the caller accounts for it
// (decision 231).
func (b *Bucket) List(ctx context.Context, prefix string, fn func(backend.Object) error) error {
	full := b.prefix + prefix
	in := &s3.ListObjectsV2Input{Bucket: &b.name, Prefix: aws.String(full), MaxKeys: aws.Int32(PageSize),
		EncodingType: types.EncodingTypeUrl}
	last, empty, keys := "", 0, 0
	for pages := 0; pages == 0 || aws.ToString(in.ContinuationToken) != ""; pages++ {
		if pages == MaxListPages || keys > MaxListKeys {
			return fmt.Errorf("list %s: %w: more than %d keys or %d pages", full, ErrListing, MaxListKeys, MaxListPages)
		}
		page, err := b.client.ListObjectsV2(ctx, in)
		if err != nil {
			return fmt.Errorf("list %s: %w", full, classify(err))
		}
		if err := decodeKeys(page, full); err != nil {
			return fmt.Errorf("list %s: %w", full, err)
		}
		if err := pageLies(page, in.ContinuationToken, &last, &empty); err != nil {
			return fmt.Errorf("list %s: %w", full, err)
		}
		in.ContinuationToken = nil
		if aws.ToBool(page.IsTruncated) {
			in.ContinuationToken = page.NextContinuationToken
		}
		keys += len(page.Contents)
		for _, o := range page.Contents {
			key := strings.TrimPrefix(aws.ToString(o.Key), b.prefix)
			if strings.HasSuffix(key, "/") && aws.ToInt64(o.Size) == 0 {
				continue
			}
			obj := backend.Object{Key: key, Size: aws.ToInt64(o.Size), Tag: aws.ToString(o.ETag)}
			if o.LastModified != nil {
				obj.ModTimeNs = o.LastModified.UnixNano()
			}
			if err := fn(obj); err != nil {
				return err
			}
		}
	}
	return nil
}

// decodeKeys turns the keys of a page listed with EncodingType=url back
// into the stored keys. XML 1.0 cannot carry most control characters: a
// server that writes keys raw shows U+0001 as U+FFFD, another key,
// so river gc asks for URL-encoded keys and decodes them
// only when the page says it is encoded (a server that ignores the
// request sends raw keys, and decoding those would turn '+' into ' ').
// A key outside the prefix asked for is a page that cannot be trusted.
func decodeKeys(page *s3.ListObjectsV2Output, prefix string) error {
	encoded := page.EncodingType == types.EncodingTypeUrl
	for i := range page.Contents {
		k := aws.ToString(page.Contents[i].Key)
		if encoded {
			var err error
			if k, err = url.QueryUnescape(k); err != nil {
				return fmt.Errorf("%w: key %q is not URL-encoded", ErrListing, aws.ToString(page.Contents[i].Key))
			}
			page.Contents[i].Key = aws.String(k)
		}
		if !strings.HasPrefix(k, prefix) {
			return fmt.Errorf("%w: key %q is not below %q", ErrListing, k, prefix)
		}
	}
	return nil
}

// ErrListing means a listing the server answered cannot be the whole
// listing: a page said "truncated" without a continuation token, sent
// back the token it was given, or listed keys out of order (S3 lists in
// key order), or empty pages went on and on, or it passed MaxListKeys
// or MaxListPages. The caller judges nothing
// of that prefix: an unseen .git marker or eval-run file would change
// what may go.
var ErrListing = errors.New("the server's listing is incomplete or does not end")

// maxEmptyPages bounds a listing's truncated pages without a key.
const maxEmptyPages = 100

// Bounds of one listing (one prefix: a scope's directory, the journal's),
// as a store's bytes are bounded: a listing that passes either is
// ErrListing, in bounded time and memory (SPEC B8 4), and nothing below
// its prefix is judged. A River Review repository holds some thousands
// of artifacts a scope; a million keys are some hundreds of MB of
// listing held in memory, and ten pages a thousand keys (S3 fills every
// page but the last) leave room for a server that sends short ones.
const (
	MaxListKeys  = 1_000_000
	MaxListPages = 10 * MaxListKeys / PageSize
)

// pageLies checks one ListObjectsV2 page against the token sent (sent)
// and the last key of the pages before (*last, updated), counting
// truncated pages without keys in *empty.
func pageLies(page *s3.ListObjectsV2Output, sent *string, last *string, empty *int) error {
	truncated := aws.ToBool(page.IsTruncated)
	next := aws.ToString(page.NextContinuationToken)
	switch {
	case truncated && next == "":
		return fmt.Errorf("%w: a page is truncated and has no continuation token", ErrListing)
	case truncated && sent != nil && next == *sent:
		return fmt.Errorf("%w: a page sends back the continuation token it was given", ErrListing)
	}
	for _, o := range page.Contents {
		k := aws.ToString(o.Key)
		if k <= *last && *last != "" {
			return fmt.Errorf("%w: key %q after %q", ErrListing, k, *last)
		}
		*last = k
	}
	if truncated && len(page.Contents) == 0 {
		if *empty++; *empty > maxEmptyPages {
			return fmt.Errorf("%w: more than %d pages without a key", ErrListing, maxEmptyPages)
		}
	}
	return nil
}

// Get reads at most limit+1 bytes of the object at key (one ranged GET).
func (b *Bucket) Get(ctx context.Context, key string, limit int64) ([]byte, backend.Object, error) {
	out, err := b.client.GetObject(ctx, &s3.GetObjectInput{Bucket: &b.name, Key: aws.String(b.prefix + key),
		Range: aws.String(fmt.Sprintf("bytes=0-%d", limit))})
	if err != nil {
		var re *awshttp.ResponseError
		if errors.As(err, &re) && re.HTTPStatusCode() == http.StatusRequestedRangeNotSatisfiable {
			return b.getEmpty(ctx, key) // an empty object has no byte 0
		}
		return nil, backend.Object{}, fmt.Errorf("get %s: %w", key, classify(err))
	}
	defer out.Body.Close()
	data, err := io.ReadAll(io.LimitReader(out.Body, limit+1))
	if err != nil {
		return nil, backend.Object{}, fmt.Errorf("get %s: %w", key, err)
	}
	obj := backend.Object{Key: key, Size: int64(len(data)), Tag: aws.ToString(out.ETag)}
	if out.ContentRange != nil {
		if _, total, ok := strings.Cut(*out.ContentRange, "/"); ok {
			fmt.Sscan(total, &obj.Size) //nolint:errcheck // the length read stands otherwise
		}
	}
	if out.LastModified != nil {
		obj.ModTimeNs = out.LastModified.UnixNano()
	}
	return data, obj, nil
}

// getEmpty reads an object that a ranged GET found empty.
func (b *Bucket) getEmpty(ctx context.Context, key string) ([]byte, backend.Object, error) {
	out, err := b.client.GetObject(ctx, &s3.GetObjectInput{Bucket: &b.name, Key: aws.String(b.prefix + key)})
	if err != nil {
		return nil, backend.Object{}, fmt.Errorf("get %s: %w", key, classify(err))
	}
	out.Body.Close()
	obj := backend.Object{Key: key, Tag: aws.ToString(out.ETag)}
	if out.LastModified != nil {
		obj.ModTimeNs = out.LastModified.UnixNano()
	}
	return nil, obj, nil
}

// Put writes the object at key under the condition c (If-None-Match: *
// or If-Match: the tag).
func (b *Bucket) Put(ctx context.Context, key string, data []byte, c backend.Cond) (backend.Object, error) {
	in := &s3.PutObjectInput{Bucket: &b.name, Key: aws.String(b.prefix + key), Body: strings.NewReader(string(data)),
		ContentLength: aws.Int64(int64(len(data)))}
	switch {
	case c.IfAbsent:
		in.IfNoneMatch = aws.String("*")
	case c.IfMatch != "":
		in.IfMatch = aws.String(c.IfMatch)
	default:
		return backend.Object{}, fmt.Errorf("put %s: an unconditional write is never made", key)
	}
	ctx, attempts := withAttempts(ctx)
	out, err := b.client.PutObject(ctx, in)
	if err != nil {
		err = classify(err)
		if errors.Is(err, backend.ErrChanged) && attempts.Load() > 1 {
			err = fmt.Errorf("%w (%w)", err, backend.ErrRetried)
		}
		return backend.Object{}, fmt.Errorf("put %s: %w", key, err)
	}
	return backend.Object{Key: key, Size: int64(len(data)), Tag: aws.ToString(out.ETag)}, nil
}

// Delete deletes the objects in DeleteObjects batches of up to PageSize
// keys, each key with its judged ETag, at most Concurrency batches in
// flight at a time across every Delete call of b (a run sends the next
// journal batch's requests while the last of the previous are still
// answered). A key the server reports as changed is looked up once: gone is
// ErrNotExist, there is ErrChanged. A key found gone in a request the
// SDK had to retry counts as deleted: the first attempt may have deleted
// it (an over-report, never an under-report; the journal names it too).
func (b *Bucket) Delete(ctx context.Context, objs []backend.Object) []error {
	errs := make([]error, len(objs))
	b.slotsOnce.Do(func() { b.deleteSlots = make(chan struct{}, max(1, b.Concurrency)) })
	sem := b.deleteSlots
	var wg sync.WaitGroup
	for lo := 0; lo < len(objs); lo += PageSize {
		hi := min(lo+PageSize, len(objs))
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			b.deleteBatch(ctx, objs[lo:hi], errs[lo:hi])
		}()
	}
	wg.Wait()
	return errs
}

// deleteBatch is one DeleteObjects request.
func (b *Bucket) deleteBatch(ctx context.Context, objs []backend.Object, errs []error) {
	ids := make([]types.ObjectIdentifier, 0, len(objs))
	index := make(map[string]int, len(objs))
	answered := make([]bool, len(objs))
	for i, o := range objs {
		if !xmlSafe(b.prefix + o.Key) { // named in the URL instead
			errs[i], answered[i] = b.deleteOne(ctx, o), true
			continue
		}
		ids = append(ids, types.ObjectIdentifier{Key: aws.String(b.prefix + o.Key), ETag: aws.String(o.Tag)})
		index[b.prefix+o.Key] = i
	}
	if len(ids) == 0 {
		return
	}
	out, err := b.client.DeleteObjects(ctx, &s3.DeleteObjectsInput{Bucket: &b.name,
		Delete: &types.Delete{Objects: ids, Quiet: aws.Bool(false)}})
	if err != nil {
		b.settleUnanswered(ctx, objs, errs, answered, fmt.Errorf("delete: %w", classify(err)))
		return
	}
	retried := false
	if res, ok := retry.GetAttemptResults(out.ResultMetadata); ok {
		retried = len(res.Results) > 1
	}
	for _, d := range out.Deleted {
		if i, ok := index[aws.ToString(d.Key)]; ok {
			answered[i] = true
		}
	}
	for _, e := range out.Errors {
		i, ok := index[aws.ToString(e.Key)]
		if !ok {
			continue
		}
		switch code := aws.ToString(e.Code); code {
		case "NoSuchKey", "PreconditionFailed", "ConditionalRequestConflict":
			answered[i] = true
			errs[i] = b.keyError(ctx, objs[i], code, aws.ToString(e.Message))
			switch {
			case retried && errors.Is(errs[i], backend.ErrNotExist):
				errs[i] = nil
			case retried && errors.Is(errs[i], backend.ErrChanged): // re-created after a lost attempt deleted it?
				errs[i] = fmt.Errorf("delete %s: %w", objs[i].Key, backend.ErrUnknown)
			}
		default: // the server's own failure for the key: what became of it is looked up
			answered[i] = false
			errs[i] = redact(fmt.Errorf("delete %s: %s: %s", objs[i].Key, code, aws.ToString(e.Message)))
		}
	}
	// A key the answer does not name (left out, or spelt otherwise), or
	// fails with the server's own error, may have been deleted: looked up
	// like the keys of a failed request.
	b.settleUnanswered(ctx, objs, errs, answered, errors.New("the server did not answer for this key"))
}

// settleUnanswered settles the objects not answered[] (their outcome
// unknown after cause, or after the error errs already holds for one)
// with settle.
func (b *Bucket) settleUnanswered(ctx context.Context, objs []backend.Object, errs []error, answered []bool, cause error) {
	var sub []backend.Object
	var at []int
	for i := range objs {
		if !answered[i] {
			sub, at = append(sub, objs[i]), append(at, i)
		}
	}
	if len(sub) == 0 {
		return
	}
	subErrs := make([]error, len(sub))
	for j, i := range at {
		subErrs[j] = errs[i]
	}
	b.settle(ctx, sub, subErrs, cause)
	for j, i := range at {
		errs[i] = subErrs[j]
	}
}

// settle finds out, after a DeleteObjects request that failed as a whole
// (its answer lost after the SDK's retries, say), what became of each
// key, with one HEAD each: gone counts as deleted (the request may have
// acted; an over-report, never a deletion without a record), the judged
// ETag still there is ErrNotDone, another is ErrUnknown; a key that
// cannot be looked up keeps the request's error (unknown).
func (b *Bucket) settle(ctx context.Context, objs []backend.Object, errs []error, cause error) {
	sem := make(chan struct{}, max(1, b.Concurrency))
	var wg sync.WaitGroup
	for i, o := range objs {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			cause := cause
			if errs[i] != nil { // this key's own failure
				cause = errs[i]
			}
			errs[i] = b.settleOne(ctx, o, cause)
		}()
	}
	wg.Wait()
}

// settleOne is what became of o after a delete whose outcome cause left
// unknown, found with one HEAD: gone is deleted (nil), the judged ETag
// still there is ErrNotDone, another is ErrUnknown, and a key that
// cannot be looked up keeps cause.
func (b *Bucket) settleOne(ctx context.Context, o backend.Object, cause error) error {
	head, err := b.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &b.name, Key: aws.String(b.prefix + o.Key)})
	switch {
	case errors.Is(classify(err), backend.ErrNotExist):
		return nil
	case err != nil:
		return cause
	case aws.ToString(head.ETag) == o.Tag:
		return fmt.Errorf("%w: %w", backend.ErrNotDone, cause)
	}
	// Rewritten before the request, or deleted by it and written again
	// since: which, no answer says (SPEC B8 6).
	return fmt.Errorf("delete %s: %w (%w)", o.Key, backend.ErrUnknown, cause)
}

// keyError turns DeleteObjects' error for one key into backend's words.
func (b *Bucket) keyError(ctx context.Context, o backend.Object, code, msg string) error {
	switch code {
	case "NoSuchKey":
		return backend.ErrNotExist
	case "PreconditionFailed", "ConditionalRequestConflict":
		_, err := b.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &b.name, Key: aws.String(b.prefix + o.Key)})
		if errors.Is(classify(err), backend.ErrNotExist) {
			return backend.ErrNotExist
		}
		return backend.ErrChanged
	}
	return redact(fmt.Errorf("delete %s: %s: %s", o.Key, code, msg))
}

// ErrNoSuchBucket means the server has no bucket of the root's name: a
// mistyped root (or one deleted meanwhile), never an object found gone.
var ErrNoSuchBucket = errors.New("no such bucket")

// classify maps the S3 answers river gc acts on to backend's errors (and
// a missing bucket to ErrNoSuchBucket, before any 404 is read as a
// missing object), with any endpoint's credentials hidden in its text.
func classify(err error) error { return redact(classifyCode(err)) }

// classifyCode is classify before the redaction.
func classifyCode(err error) error {
	if err == nil {
		return nil
	}
	if r := refused(err); r != nil {
		return r
	}
	var api smithy.APIError
	if errors.As(err, &api) {
		switch api.ErrorCode() {
		case "NoSuchBucket":
			return fmt.Errorf("%w (NoSuchBucket)", ErrNoSuchBucket)
		case "NoSuchKey", "NotFound":
			return fmt.Errorf("%w (%s)", backend.ErrNotExist, api.ErrorCode())
		case "PreconditionFailed", "ConditionalRequestConflict":
			return fmt.Errorf("%w (%s)", backend.ErrChanged, api.ErrorCode())
		}
	}
	var re *awshttp.ResponseError
	if errors.As(err, &re) {
		switch re.HTTPStatusCode() {
		case http.StatusNotFound:
			return fmt.Errorf("%w (HTTP 404)", backend.ErrNotExist)
		case http.StatusPreconditionFailed, http.StatusConflict:
			return fmt.Errorf("%w (HTTP %d)", backend.ErrChanged, re.HTTPStatusCode())
		}
	}
	return err
}
