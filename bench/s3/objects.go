package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// key is the i-th object of the prefix: River Review scratch files,
// .river/tmp/job-NNNN/part-NNN.log, 100 a job (the tmp scope, judged by
// LastModified: no body is read).
func (b *bench) key(i int) string {
	return fmt.Sprintf("%s/.river/tmp/job-%04d/part-%03d.log", b.prefix, i/100, i%100)
}

// fill empties the prefix and uploads its n objects again with bounded
// concurrency (untimed), then pins river-gc's clock 61 days after the
// upload, so its 60-day retention selects every object, as rclone's
// --min-age 1s does one second later.
func (b *bench) fill() error {
	ctx := context.Background()
	if err := b.empty(ctx); err != nil {
		return err
	}
	start := time.Now()
	jobs := make(chan int)
	errs := make(chan error, b.workers)
	var wg sync.WaitGroup
	for w := 0; w < b.workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				body := fmt.Sprintf("scratch %d\n", i)
				_, err := b.client.PutObject(ctx, &s3.PutObjectInput{Bucket: &b.bucket, Key: aws.String(b.key(i)), Body: strings.NewReader(body)})
				if err != nil {
					select {
					case errs <- fmt.Errorf("uploading %s: %w", b.key(i), err):
					default:
					}
				}
			}
		}()
	}
	for i := 0; i < b.n; i++ {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	select {
	case err := <-errs:
		return err
	default:
	}
	if got, err := b.count(); err != nil || got != b.n {
		return fmt.Errorf("after the upload the prefix holds %d objects, want %d (%v)", got, b.n, err)
	}
	fmt.Fprintf(os.Stderr, "uploaded %d objects in %.1f s (%d in flight)\n", b.n, time.Since(start).Seconds(), b.workers)
	b.now = time.Now().UTC().Add(61 * 24 * time.Hour).Format(time.RFC3339)
	time.Sleep(1100 * time.Millisecond) // rclone's --min-age 1s: every object at least a second old
	return nil
}

// count returns how many objects the bucket holds under the prefix (a
// bounded loop of pages of 1000).
func (b *bench) count() (int, error) {
	n := 0
	err := b.pages(context.Background(), func(keys []string) error {
		for _, k := range keys {
			if k != b.prefix+"/.river/gc-root" { // river-gc's root marker stays by design (SPEC H)
				n++
			}
		}
		return nil
	})
	return n, err
}

// empty deletes whatever is left under the prefix (after a program that
// failed, or before the first run).
func (b *bench) empty(ctx context.Context) error {
	return b.pages(ctx, func(keys []string) error {
		if len(keys) == 0 {
			return nil
		}
		var ids []types.ObjectIdentifier
		for _, k := range keys {
			ids = append(ids, types.ObjectIdentifier{Key: aws.String(k)})
		}
		_, err := b.client.DeleteObjects(ctx, &s3.DeleteObjectsInput{Bucket: &b.bucket, Delete: &types.Delete{Objects: ids, Quiet: aws.Bool(true)}})
		return err
	})
}

// pages calls f with each page of keys under the prefix.
func (b *bench) pages(ctx context.Context, f func(keys []string) error) error {
	p := s3.NewListObjectsV2Paginator(b.client, &s3.ListObjectsV2Input{Bucket: &b.bucket, Prefix: aws.String(b.prefix + "/")})
	for page := 0; p.HasMorePages(); page++ {
		if page > 10_000 {
			return fmt.Errorf("listing %s/%s: more than 10,000 pages", b.bucket, b.prefix)
		}
		out, err := p.NextPage(ctx)
		if err != nil {
			return err
		}
		keys := make([]string, len(out.Contents))
		for i, o := range out.Contents {
			keys[i] = aws.ToString(o.Key)
		}
		if err := f(keys); err != nil {
			return err
		}
	}
	return nil
}
