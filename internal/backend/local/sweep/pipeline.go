//go:build linux

package sweep

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
)

// batchesOf cuts the sorted targets into the batches Options.Intend is
// called with: size targets each (the last may be shorter), never
// splitting a path given twice, so its occurrences stay in one run, nor
// the targets of a held directory (holds, indexed by at), so that every
// one of them is journaled before the directory leaves its name. Without
// Intend (or size ≤ 0) all targets are one batch.
func batchesOf(ts []Target, opts Options, holds []*hold, at map[string]int) []span {
	if opts.Intend == nil || opts.Batch <= 0 {
		return []span{{0, len(ts)}}
	}
	var bs []span
	for lo := 0; lo < len(ts); {
		hi := min(lo+opts.Batch, len(ts))
		for hi < len(ts) && ts[hi].Path == ts[hi-1].Path {
			hi++
		}
		if i := holdFor(at, dirOf(ts[hi-1].Path)); i >= 0 { // a held directory's targets are consecutive
			for below := holds[i].path + "/"; hi < len(ts) && strings.HasPrefix(ts[hi].Path, below); {
				hi++
			}
		}
		bs = append(bs, span{lo, hi})
		lo = hi
	}
	return bs
}

// pipeline is one Delete call's schedule: the runs of every batch, in the
// order workers take them (batch by batch; within a batch across
// directories when several workers run), and the gates that keep each
// batch's runs back until its intents are durable.
type pipeline struct {
	ts      []Target
	batches []span
	runs    []span
	batchOf []int // batchOf[k]: the batch run k belongs to
	// ready[b] is closed when batch b's Intend returned or will never be
	// called; stopFrom (set before the close) is then the first batch
	// that may not be attempted (len(batches) while none).
	ready    []chan struct{}
	stopFrom atomic.Int64
	// started[b] is closed when a worker takes batch b's first run: the
	// writer may then journal batch b+journalAhead (at most journalAhead
	// batches ahead of the last one begun).
	started []chan struct{}
	// intendErr is the failure of Intend (nil when none), failedAt its
	// batch; both are written before stopFrom and read after the workers.
	intendErr error
	failedAt  int
	// holds are Options.Hold's directories; holdOf[k] is the index of
	// the one run k lies in, -1 when none.
	holds  []*hold
	holdOf []int
}

// newPipeline lays out the runs of ts's batches for n workers.
func newPipeline(ts []Target, opts Options, n int) *pipeline {
	p := &pipeline{ts: ts}
	var at map[string]int
	p.holds, at = holdsOf(opts.Hold, opts.Exchange)
	p.batches = batchesOf(ts, opts, p.holds, at)
	for b, bt := range p.batches {
		runs := runsOf(ts[bt.lo:bt.hi])
		for i := range runs {
			runs[i].lo += bt.lo
			runs[i].hi += bt.lo
		}
		if n > 1 {
			runs = acrossDirs(ts, runs)
		}
		for range runs {
			p.batchOf = append(p.batchOf, b)
		}
		p.runs = append(p.runs, runs...)
		p.ready = append(p.ready, make(chan struct{}))
		p.started = append(p.started, make(chan struct{}))
	}
	p.stopFrom.Store(int64(len(p.batches)))
	p.holdOf = make([]int, len(p.runs))
	for k, r := range p.runs {
		i := -1
		if len(p.holds) > 0 {
			i = holdFor(at, dirOf(ts[r.lo].Path))
		}
		if p.holdOf[k] = i; i >= 0 {
			p.holds[i].runs.Add(1)
		}
	}
	return p
}

// holdAt is the held directory run k lies in, nil when none.
func (p *pipeline) holdAt(k int) *hold {
	if i := p.holdOf[k]; i >= 0 {
		return p.holds[i]
	}
	return nil
}

// journalAhead is how many batches the journal writer may be ahead of
// the last batch a worker has begun. One was not enough (decision 278):
// the writer is one goroutine among the workers, and on two CPUs it
// waited up to 17 ms for one (the workers run system calls without
// blocking) while the workers, done with their batch, waited for it.
// Four batches are about 40 ms of deletions on tmpfs; a run killed
// meanwhile has at most that many intents durable and not acted on,
// which recovery does not report (only journaled files that are gone).
const journalAhead = 4

// journal calls intend for each batch in order, on one goroutine: batch 0
// at once, then each next one as soon as it is at most journalAhead
// batches ahead of the last batch a worker has begun, so the writing and
// syncing of the next batches overlaps the deletion of the current one.
// It stops at the first failure, when ctx is done, or when the workers are
// all gone (workersDone); every batch it did not journal is then closed
// off (stopFrom), so no worker waits for it.
func (p *pipeline) journal(ctx context.Context, intend func([]Target) error, workersDone <-chan struct{}) {
	b := 0
	defer func() {
		p.stopFrom.Store(int64(b))
		for ; b < len(p.batches); b++ {
			close(p.ready[b])
		}
	}()
	for ; b < len(p.batches); b++ {
		if b >= journalAhead {
			select {
			case <-p.started[b-journalAhead]:
			case <-workersDone:
				return
			}
		}
		if ctx.Err() != nil {
			return
		}
		if err := intend(p.ts[p.batches[b].lo:p.batches[b].hi]); err != nil {
			p.intendErr, p.failedAt = err, b
			return
		}
		close(p.ready[b])
	}
}

// work is one worker: it takes the next run, waits until its batch may be
// attempted, and handles it (sweepRun), until the runs are done, ctx is
// done or the journal stopped.
func (p *pipeline) work(ctx context.Context, d *deleter, next *atomic.Int64, res []result, after func(int)) {
	for {
		k := int(next.Add(1)) - 1
		if k >= len(p.runs) {
			return
		}
		b := p.batchOf[k]
		if k == 0 || p.batchOf[k-1] != b {
			close(p.started[b])
		}
		select {
		case <-p.ready[b]:
		case <-ctx.Done():
			return
		}
		if int64(b) >= p.stopFrom.Load() {
			return
		}
		h := p.holdAt(k)
		ok := d.sweepRun(ctx, p.ts, p.runs[k], res, after, d.acquire(h))
		d.runEnded(h)
		if !ok {
			return
		}
	}
}

// sweep runs the pipeline with n workers (on the caller's goroutine when
// n is 1, strictly in path order), with the journal writer beside them
// when intend is set, and returns once both have ended. Progress is
// reported on the caller's goroutine, counting the targets handled.
func (p *pipeline) sweep(ctx context.Context, d *deleter, res []result, n int, intend func([]Target) error, progress func(int, int)) {
	workersDone := make(chan struct{})
	journalDone := make(chan struct{})
	if intend == nil {
		close(p.ready[0])
		close(journalDone)
	} else {
		go func() {
			defer close(journalDone)
			p.journal(ctx, intend, workersDone)
		}()
	}
	var next atomic.Int64
	if n == 1 {
		var after func(int)
		if progress != nil {
			done := 0
			after = func(int) { done++; progress(done, len(p.ts)) }
		}
		p.work(ctx, d, &next, res, after)
		close(workersDone)
		<-journalDone
		return
	}
	var wg sync.WaitGroup
	var after func(int)
	var handled chan struct{}
	if progress != nil {
		handled = make(chan struct{}, 1024)
		after = func(int) { handled <- struct{}{} }
	}
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.work(ctx, d, &next, res, after)
		}()
	}
	go func() {
		wg.Wait()
		close(workersDone)
		if handled != nil {
			close(handled)
		}
	}()
	if handled != nil {
		done := 0
		for range handled {
			done++
			progress(done, len(p.ts))
		}
	}
	<-workersDone
	<-journalDone
}
