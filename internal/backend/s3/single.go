package s3

import (
	"context"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/plangate-gc/plangate-gc/internal/backend"
)

// xmlSafe reports whether key can be named in an XML request body as it
// is: valid UTF-8 of characters XML 1.0 can carry. The SDK writes any
// other character of a DeleteObjects body as U+FFFD, which names another
// key.
func xmlSafe(key string) bool {
	for i := 0; i < len(key); {
		r, w := utf8.DecodeRuneInString(key[i:])
		switch {
		case r == utf8.RuneError && w == 1:
			return false
		case r == '\t' || r == '\n' || r == '\r':
		case r < 0x20, r >= 0xD800 && r < 0xE000, r == 0xFFFE, r == 0xFFFF:
			return false
		}
		i += w
	}
	return true
}

// ErrSingleUnproven means a key XML cannot carry was not deleted: it
// needs a DeleteObject with If-Match (its key goes in the URL), and this
// server did not prove that it refuses a wrong ETag there, or
// SingleCanary was not set.
var ErrSingleUnproven = errors.New("a key XML cannot carry needs DeleteObject If-Match, which the server did not prove it honours")

// deleteOne deletes one object with DeleteObject If-Match on its judged
// ETag, after proving once per Bucket that the server refuses a wrong
// one. A refusal, or an answer lost, is settled by settleOne: gone counts
// as deleted (an earlier attempt may have deleted it; an over-report,
// never a deletion without a record).
func (b *Bucket) deleteOne(ctx context.Context, o backend.Object) error {
	b.singleOnce.Do(func() { b.singleErr = b.proveSingle(ctx) })
	if b.singleErr != nil {
		return fmt.Errorf("delete %s: %w (%w): %w", o.Key, backend.ErrNotDone, backend.ErrNotSent, b.singleErr)
	}
	_, err := b.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &b.name, Key: aws.String(b.prefix + o.Key), IfMatch: aws.String(o.Tag)})
	if err == nil {
		return nil
	}
	return b.settleOne(ctx, o, fmt.Errorf("delete %s: %w", o.Key, classify(err)))
}

// proveSingle creates a canary object at SingleCanary and checks that a
// DeleteObject with a wrong If-Match is refused and leaves it; then
// deletes it with its own ETag.
func (b *Bucket) proveSingle(ctx context.Context) error {
	if b.SingleCanary == "" {
		return ErrSingleUnproven
	}
	obj, err := backend.PutOwn(ctx, b, b.SingleCanary, []byte("river gc canary (DeleteObject If-Match)\n"), backend.Cond{IfAbsent: true})
	if err != nil {
		return fmt.Errorf("canary %s: %w", b.SingleCanary, err)
	}
	key := aws.String(b.prefix + b.SingleCanary)
	_, derr := b.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &b.name, Key: key, IfMatch: aws.String(`"00000000000000000000000000000000"`)})
	_, herr := b.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &b.name, Key: key})
	_, cerr := b.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &b.name, Key: key, IfMatch: aws.String(obj.Tag)})
	switch {
	case derr == nil || herr != nil:
		return fmt.Errorf("%w (%s)", ErrSingleUnproven, "a wrong If-Match deleted the canary")
	case !errors.Is(classify(derr), backend.ErrChanged):
		return fmt.Errorf("canary %s: %w", b.SingleCanary, classify(derr))
	case cerr != nil:
		return fmt.Errorf("canary %s: %w", b.SingleCanary, classify(cerr))
	}
	return nil
}
