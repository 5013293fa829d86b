//go:build linux

package scan

import (
	"bytes"
	"runtime"
	"sync"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// Parallel examination. Listing a directory is cheap next to what its
// regular files cost: a statx each, or for a *.json file an open, a
// statx of the descriptor, a read and a close. So the walker hands the
// names getdents reports as regular files (d_type DT_REG) to a pool of
// workers, in batches, and goes on listing while they are examined on
// the other cores. Anything else (directories, symlinks, a file system
// that reports no d_type) is examined by the walker itself.
//
// Workers examine exactly as the walker would (sink.examine), each into
// its own sink; finish merges and sorts, so the result does not depend on
// scheduling. A batch shares the descriptors of its directories with the
// walker by reference count (openDir): a directory is closed once the
// walker has left or evicted it and the last batch holding its names is
// done. The queue is bounded, which bounds memory, and so are the
// directories that batches pin and the number of workers (see workersFor).

// A batch is handed over once it holds batchNames names or names of
// batchDirs directories, so that directories of a few files (eval runs)
// travel together rather than wake a worker each.
const (
	batchNames = 256
	batchDirs  = 16
)

// queueLen is the most batches waiting for a worker.
const queueLen = 4

// workers is how many goroutines examine files: one per CPU the runtime
// may use; with one, the walker examines inline and no pool is started.
func workers() int { return runtime.GOMAXPROCS(0) }

// Descriptors. A scan keeps open at most: budget directories for the
// walker (stack.go), budget more pinned by batches (pool.pins), and one
// file per worker, whose number is capped at budget/2; budget is a
// quarter of the soft descriptor limit, so a scan stays within three
// quarters of it, whatever the number of CPUs.
func workersFor(budget, n int) int { return min(n, max(2, budget/2)) }

// openDir is a directory descriptor shared by the walker and the batches
// holding names of that directory; the last release closes it.
type openDir struct {
	fd   int
	path string // root-relative path of the directory
	refs atomic.Int32
}

func (d *openDir) release() {
	if d.refs.Add(-1) == 0 {
		unix.Close(d.fd)
	}
}

// job is one batch: NUL-terminated names of regular files, in runs of one
// directory each (a run holds a reference to its directory).
type job struct {
	names []byte
	runs  []run
}

// run says that the names of a job up to end are in dir.
type run struct {
	dir *openDir
	end int
}

// pool runs the workers; each one owns a sink. pins holds a token for
// every directory a batch keeps open (one per run), so that the
// directories pinned by pending work stay within a budget of their own.
type pool struct {
	jobs  chan job
	pins  chan struct{}
	sinks []*sink
	wg    sync.WaitGroup
}

// newPool starts n workers, each with a sink like proto (options and
// root mount); at most maxPins directories are pinned by batches at any
// time.
func newPool(n, maxPins int, proto *sink) *pool {
	p := &pool{jobs: make(chan job, queueLen), pins: make(chan struct{}, maxPins)}
	for range n {
		s := &sink{opts: proto.opts, rootDev: proto.rootDev, rootMnt: proto.rootMnt}
		p.sinks = append(p.sinks, s)
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			for j := range p.jobs {
				start := 0
				for _, r := range j.runs {
					examineAll(s, r.dir.fd, r.dir.path, j.names[start:r.end])
					r.dir.release()
					<-p.pins
					start = r.end
				}
			}
			s.sort() // in parallel with the other workers
		}()
	}
	return p
}

// wait lets the workers finish every queued batch and returns their sinks,
// each with its files sorted.
func (p *pool) wait() []*sink {
	close(p.jobs)
	p.wg.Wait()
	return p.sinks
}

// examineAll examines each NUL-terminated name of names in dirfd, whose
// root-relative path is dir.
func examineAll(s *sink, dirfd int, dir string, names []byte) {
	for len(names) > 0 {
		n := bytes.IndexByte(names, 0)
		s.examine(dirfd, dir, names[:n], &names[0])
		names = names[n+1:]
	}
}

// queue hands the regular file d of the directory being listed (fd,
// path w.path) to the pool, or examines it at once when there is no pool.
// The directory's descriptor becomes shared (openDir) with its first
// name: from then on the last reference closes it, the frame's
// (frame.close) or a batch's.
func (w *walker) queue(fd int, d dirent) {
	if w.dir == nil {
		w.dir = &openDir{fd: fd, path: string(w.path)}
		w.dir.refs.Store(1) // the frame's
	}
	if w.workers < 2 {
		w.sink.examine(fd, w.dir.path, d.name, d.nameZ)
		return
	}
	if w.pool == nil {
		w.pool = newPool(w.workers, w.budget, &w.sink)
	}
	j := &w.batch
	if k := len(j.runs); k == 0 || j.runs[k-1].dir != w.dir {
		w.pin()
		w.dir.refs.Add(1) // the batch's
		j.runs = append(j.runs, run{dir: w.dir})
	}
	j.names = append(append(j.names, d.name...), 0)
	j.runs[len(j.runs)-1].end = len(j.names)
	w.batchN++
	if w.batchN == batchNames || len(j.runs) == batchDirs {
		w.flush()
	}
}

// pin takes a token for one more directory pinned by a batch. When none
// is left it first hands over its own batch, so that the workers, which
// never wait for the walker, finish batches and give tokens back.
func (w *walker) pin() {
	select {
	case w.pool.pins <- struct{}{}:
	default:
		w.flush()
		w.pool.pins <- struct{}{}
	}
}

// flush hands the current batch to the pool.
func (w *walker) flush() {
	if w.batchN == 0 {
		return
	}
	w.pool.jobs <- w.batch
	w.batch, w.batchN = job{names: make([]byte, 0, cap(w.batch.names))}, 0
}

// close gives up the frame's descriptor: closes it, or drops the frame's
// reference when it is shared.
func (f *frame) close() {
	switch {
	case f.shared != nil:
		f.shared.release()
		f.shared = nil
	case f.fd >= 0:
		unix.Close(f.fd)
	}
	f.fd = -1
}
