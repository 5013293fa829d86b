package render

import (
	"io"
	"runtime"
	"sync"

	"github.com/plangate-gc/plangate-gc/skill"
)

// itemChunk is how many removals one rendering step appends before the
// bytes are written: about half a megabyte of JSON.
const itemChunk = 4096

// appendItems appends one item per decision, comma-separated, to b and
// writes the bytes on in order whenever a chunk is done; it returns what
// is left to write. A million removals are two hundred megabytes of
// JSON, the most work of the whole run: with a second core, chunks are
// rendered by two workers while this goroutine writes them in order, so
// the bytes are those of the loop in chunk order whatever the schedule.
func appendItems(w io.Writer, b []byte, ds []skill.Decision, item func([]byte, *skill.Decision) []byte) ([]byte, error) {
	chunks := (len(ds) + itemChunk - 1) / itemChunk
	workers := min(runtime.GOMAXPROCS(0), 2)
	if chunks < 4 || workers < 2 {
		for k := range chunks {
			b = appendChunk(b, ds, k, item)
			if len(b) > 1<<16 {
				if _, err := w.Write(b); err != nil {
					return nil, err
				}
				b = b[:0]
			}
		}
		return b, nil
	}
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	return b[:0], renderChunks(w, ds, chunks, workers, item)
}

// renderChunks has workers render the chunks, worker i those numbered i
// modulo workers, each with two buffers that this goroutine hands back
// once written, and writes them in chunk order.
func renderChunks(w io.Writer, ds []skill.Decision, chunks, workers int, item func([]byte, *skill.Decision) []byte) error {
	done := make(chan struct{})
	var wg sync.WaitGroup
	defer wg.Wait()
	defer close(done)
	full, free := make([]chan []byte, workers), make([]chan []byte, workers)
	for i := range workers {
		full[i], free[i] = make(chan []byte, 2), make(chan []byte, 2)
		free[i] <- nil
		free[i] <- nil
		wg.Go(func() {
			for k := i; k < chunks; k += workers {
				var buf []byte
				select {
				case buf = <-free[i]:
				case <-done:
					return
				}
				full[i] <- appendChunk(buf[:0], ds, k, item)
			}
		})
	}
	for k := range chunks {
		buf := <-full[k%workers]
		if _, err := w.Write(buf); err != nil {
			return err
		}
		free[k%workers] <- buf
	}
	return nil
}

// appendChunk appends the items of chunk k, each after a comma but the
// very first.
func appendChunk(b []byte, ds []skill.Decision, k int, item func([]byte, *skill.Decision) []byte) []byte {
	part := ds[k*itemChunk : min((k+1)*itemChunk, len(ds))]
	var warmed byte
	for i := range part {
		if i%warmAhead == 0 {
			warmed += warm(part[i:])
		}
		if k > 0 || i > 0 {
			b = append(b, ',')
		}
		b = item(b, &part[i])
	}
	runtime.KeepAlive(warmed)
	return b
}
