package main

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// scaleRow is one measurement of the engine's delete paths: how many
// requests were in flight, how many keys one request carried (1: a
// DeleteObject If-Match; more: a DeleteObjects with an ETag per key),
// the wall time and the engine's CPU time for the whole prefix.
type scaleRow struct {
	inFlight, keys       int
	wall, engine, others float64
}

// scale measures, for each in-flight count, the engine deleting the n
// objects of the prefix with their listed ETags, in DeleteObjects
// batches of batch keys and as single DeleteObject If-Match requests,
// from this process (no client program in between): the engine's own
// throughput and CPU per key on each path.
func (b *bench) scale(inFlight []int, batch int) ([]scaleRow, error) {
	var rows []scaleRow
	for _, c := range inFlight {
		for _, keys := range []int{batch, 1} {
			if err := b.fill(); err != nil {
				return nil, err
			}
			var objs []types.ObjectIdentifier
			ctx := context.Background()
			p := s3.NewListObjectsV2Paginator(b.client, &s3.ListObjectsV2Input{Bucket: &b.bucket, Prefix: aws.String(b.prefix + "/")})
			for p.HasMorePages() {
				page, err := p.NextPage(ctx)
				if err != nil {
					return nil, err
				}
				for _, o := range page.Contents {
					objs = append(objs, types.ObjectIdentifier{Key: o.Key, ETag: o.ETag})
				}
			}
			before, err := processCPU(b.engine.Pid)
			if err != nil {
				return nil, err
			}
			self, err := processCPU(os.Getpid())
			if err != nil {
				return nil, err
			}
			machine := machineCPU()
			start := time.Now()
			if err := b.deleteAll(ctx, objs, c, keys); err != nil {
				return nil, err
			}
			row := scaleRow{inFlight: c, keys: keys, wall: time.Since(start).Seconds()}
			after, err := processCPU(b.engine.Pid)
			if err != nil {
				return nil, err
			}
			row.engine = after - before
			selfAfter, err := processCPU(os.Getpid())
			if err != nil {
				return nil, err
			}
			row.others = max(0, machineCPU()-machine-row.engine-(selfAfter-self))
			if left, err := b.count(); err != nil || left != 0 {
				return nil, fmt.Errorf("scale: %d of %d objects left (%v)", left, b.n, err)
			}
			fmt.Fprintf(os.Stderr, "scale: %d in flight, %d keys a request: %.2f s, engine %.2f s CPU, other processes %.2f cores busy (load %.2f)\n",
				c, keys, row.wall, row.engine, row.others/row.wall, loadAverage())
			rows = append(rows, row)
		}
	}
	return rows, nil
}

// deleteAll deletes objs in requests of keys keys (1: DeleteObject
// If-Match), inFlight at a time.
func (b *bench) deleteAll(ctx context.Context, objs []types.ObjectIdentifier, inFlight, keys int) error {
	sem := make(chan struct{}, inFlight)
	var mu sync.Mutex
	var first error
	var wg sync.WaitGroup
	for lo := 0; lo < len(objs); lo += keys {
		part := objs[lo:min(lo+keys, len(objs))]
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			var err error
			if keys == 1 {
				_, err = b.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &b.bucket, Key: part[0].Key, IfMatch: part[0].ETag})
			} else {
				var out *s3.DeleteObjectsOutput
				out, err = b.client.DeleteObjects(ctx, &s3.DeleteObjectsInput{Bucket: &b.bucket, Delete: &types.Delete{Objects: part, Quiet: aws.Bool(true)}})
				if err == nil && len(out.Errors) > 0 {
					err = fmt.Errorf("%s: %s", aws.ToString(out.Errors[0].Key), aws.ToString(out.Errors[0].Code))
				}
			}
			if err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return first
}

// reportScale prints the scaling rows: keys a second and the engine's
// CPU per key on each path.
func (b *bench) reportScale(rows []scaleRow) {
	fmt.Printf("| in flight | keys a request | wall s | keys/s | engine CPU s | engine CPU ms per key | engine cores busy | other processes' cores busy |\n|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Printf("| %d | %d | %.2f | %.0f | %.2f | %.3f | %.2f | %.2f |\n", r.inFlight, r.keys, r.wall, float64(b.n)/r.wall,
			r.engine, 1000*r.engine/float64(b.n), r.engine/r.wall, r.others/r.wall)
	}
	fmt.Println()
}
