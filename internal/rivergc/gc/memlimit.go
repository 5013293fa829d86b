//go:build linux

package gc

import (
	"math"
	"runtime"
	"runtime/debug"
	"sync"
)

// SPEC B6 bounds an entry scope's memory: at most twice the store plus
// 200 bytes an entry, counted as the process's whole peak RSS where the
// store is big enough for that to be possible (decision 233). What the
// reader and the engine hold stays below that (bench/stores measures it),
// but Go's collector lets the heap grow to twice what is live before it
// collects (GOGC=100), and the peak would be that. So reading a store
// sets a soft memory limit (the collector works harder near it; it never
// fails an allocation): the heap the run held before the store plus the
// budget, less what the process holds outside the limit's count (its
// binary's pages), so that the whole process stays within the budget;
// but never below twice what the run holds once the store is read (the
// heap before it, the store's bytes, its entries and names: GOGC's own
// goal then), so that a small store, whose budget is below the process's
// own floor, is not collected without end. A limit the user set
// (GOMEMLIMIT) is left alone.

// outsideLimit is what a run's RSS holds that the runtime's memory limit
// does not count: the binary's text and data pages (bench/stores measures
// a whole run without a store at 11 MB, its heap and stacks included).
const outsideLimit = 8 << 20

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
// bytes and n entries, read while the run held before bytes of heap, whose
// parsed form holds held bytes beside the store's own.
func limitStoreMemory(before, held int64, size, n int) {
	memLimit.Lock()
	defer memLimit.Unlock()
	cur := debug.SetMemoryLimit(-1)
	if cur != math.MaxInt64 && !(memLimit.ours && cur == memLimit.set) {
		return // GOMEMLIMIT or another caller chose one
	}
	want := max(before+2*int64(size)+200*int64(n)-outsideLimit, 2*(before+int64(size)+held))
	if memLimit.ours && want <= cur {
		return
	}
	debug.SetMemoryLimit(want)
	memLimit.ours, memLimit.set = true, want
}

// collectSpentInput collects once an entry scope's engine input (40
// bytes an entry) is dropped, before the removals' stamps are made
// (decision 270). The soft limit alone does not keep the peak down there:
// a cycle that starts while the input is still reachable keeps it for
// that whole cycle while the stamps are allocated, and at a million
// entries the peak was the live set plus that input, 0.99–1.04× the
// budget. Collected at the one moment the largest dead structure dies,
// the peak is what the run holds (1M tiny ledger: 22 MiB lower, no more
// CPU, since the cycle the soft limit would start soon after is saved).
func collectSpentInput() { runtime.GC() }
