package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// ifMatchArg is the first argument that makes this binary the
// sdk-ifmatch contender instead of the benchmark.
const ifMatchArg = "-delete-if-match"

// ifMatchWorkers is rclone's default --checkers, the deletions it keeps
// in flight, so sdk-ifmatch differs from rclone only in the If-Match.
const ifMatchWorkers = 8

// deleteIfMatch is what rclone's delete would cost with river-gc's
// safety: it lists bucket/prefix/ and sends one DeleteObject per object
// with If-Match on the listed ETag, ifMatchWorkers at a time, the client
// set up from the AWS SDK's standard variables as river-gc's is.
func deleteIfMatch(bucket, prefix string) error {
	ctx := context.Background()
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return err
	}
	c := s3.NewFromConfig(cfg, func(o *s3.Options) { o.UsePathStyle = true })
	jobs := make(chan [2]string)
	errs := make(chan error, ifMatchWorkers)
	var wg sync.WaitGroup
	for range ifMatchWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var first error
			for j := range jobs {
				_, err := c.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &bucket, Key: aws.String(j[0]), IfMatch: aws.String(j[1])})
				if err != nil && first == nil {
					first = fmt.Errorf("delete %s: %w", j[0], err)
				}
			}
			errs <- first
		}()
	}
	p := s3.NewListObjectsV2Paginator(c, &s3.ListObjectsV2Input{Bucket: &bucket, Prefix: aws.String(prefix + "/")})
	var lerr error
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			lerr = err
			break
		}
		for _, o := range page.Contents {
			jobs <- [2]string{aws.ToString(o.Key), aws.ToString(o.ETag)}
		}
	}
	close(jobs)
	wg.Wait()
	close(errs)
	for e := range errs {
		lerr = errors.Join(lerr, e)
	}
	return lerr
}

// ifMatchMain runs the sdk-ifmatch contender when the binary is called
// as `s3 -delete-if-match BUCKET PREFIX`; it reports whether it did.
func ifMatchMain() bool {
	if len(os.Args) != 4 || os.Args[1] != ifMatchArg {
		return false
	}
	if err := deleteIfMatch(os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintln(os.Stderr, "sdk-ifmatch:", err)
		os.Exit(1)
	}
	return true
}
