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
// workers, in batches of at most batchNames names of one directory, and
// goes on listing while they are examined on the other cores. Anything
// else (directories, symlinks, a file system that reports no d_type) is
// examined by the walker itself.
//
// Workers examine exactly as the walker would (sink.examine), each into
// its own sink; finish merges and sorts, so the result does not depend on
// scheduling. A batch shares its directory's descriptor with the walker
// by reference count (openDir): the directory is closed once the walker
// has left or evicted it and its last batch is done. The queue is
// bounded: at most queueLen batches wait, which bounds the memory and the
// descriptors that pending work keeps open (at most queueLen plus one per
// worker, next to the walker's budget).

// batchNames is the most names one batch carries.
const batchNames = 256

// queueLen is the most batches waiting for a worker.
const queueLen = 16

// workers is how many goroutines examine files: one per CPU the runtime
// may use; with one, the walker examines inline and no pool is started.
func workers() int { return runtime.GOMAXPROCS(0) }

// openDir is a directory descriptor shared by the batches of one
// directory; the last release closes it.
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

// job is one batch: NUL-terminated names of regular files in dir.
type job struct {
	dir   *openDir
	names []byte
}

// pool runs the workers; each one owns a sink.
type pool struct {
	jobs  chan job
	sinks []*sink
	wg    sync.WaitGroup
}

func newPool(n int, opts Options) *pool {
	p := &pool{jobs: make(chan job, queueLen)}
	for range n {
		s := &sink{opts: opts}
		p.sinks = append(p.sinks, s)
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			for j := range p.jobs {
				examineAll(s, j.dir.fd, j.dir.path, j.names)
				j.dir.release()
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

// queue adds the regular file name of the directory being listed (fd,
// path w.path) to the current batch, handing the batch over when full.
func (w *walker) queue(fd int, name []byte) {
	w.batch = append(append(w.batch, name...), 0)
	w.batchN++
	if w.batchN == batchNames {
		w.flush(fd)
	}
}

// flush hands the current batch to the pool, or examines it inline when
// the walker has no pool. The first batch of a directory makes its
// descriptor shared (openDir): from then on the frame's last reference
// closes it, the walker's (frame.close) or a worker's.
func (w *walker) flush(fd int) {
	if w.batchN == 0 {
		return
	}
	w.batchN = 0
	if w.workers < 2 {
		examineAll(&w.sink, fd, string(w.path), w.batch)
		w.batch = w.batch[:0]
		return
	}
	if w.pool == nil {
		w.pool = newPool(w.workers, w.opts)
	}
	if w.dir == nil {
		w.dir = &openDir{fd: fd, path: string(w.path)}
		w.dir.refs.Store(1) // the frame's, dropped by frame.close
	}
	w.dir.refs.Add(1)
	w.pool.jobs <- job{dir: w.dir, names: w.batch}
	w.batch = make([]byte, 0, cap(w.batch))
}

// close gives up the frame's descriptor: closes it, or drops the frame's
// reference when batches share it.
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
