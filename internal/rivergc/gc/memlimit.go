//go:build linux

package gc

import (
	"math"
	"runtime"
	"runtime/debug"
	"sync"
)

// SPEC B6 bounds an entry scope's memory: at most twice the store plus
// 200 bytes an entry. What the reader and the engine hold stays below
// that (bench/stores measures it), but Go's collector lets the heap grow
// to twice what is live before it collects (GOGC=100), and the peak would
// be that. So reading a store sets a soft memory limit (the collector
// works harder near it; it never fails an allocation) of the budget plus
// twice what the run held before the store and a fixed allowance for the
// runtime. A limit the user set (GOMEMLIMIT) is left alone.

// runtimeAllowance is the memory a run needs beside its heap: the
// binary's own pages, stacks, the collector's metadata.
const runtimeAllowance = 8 << 20

var memLimit struct {
	sync.Mutex
	ours bool  // the current limit is one this package set
	set  int64 // and its value
}

// heapInUse is the heap the run holds now, in bytes.
func heapInUse() int64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapInuse)
}

// limitStoreMemory raises the soft memory limit to cover a store of size
// bytes and n entries, read while the run held before bytes of heap.
func limitStoreMemory(before int64, size, n int) {
	memLimit.Lock()
	defer memLimit.Unlock()
	cur := debug.SetMemoryLimit(-1)
	if cur != math.MaxInt64 && !(memLimit.ours && cur == memLimit.set) {
		return // GOMEMLIMIT or another caller chose one
	}
	want := 2*before + 2*int64(size) + 200*int64(n) + runtimeAllowance
	if memLimit.ours && want <= cur {
		return
	}
	debug.SetMemoryLimit(want)
	memLimit.ours, memLimit.set = true, want
}
