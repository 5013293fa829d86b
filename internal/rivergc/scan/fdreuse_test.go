//go:build linux

package scan

import (
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/skill"
)

// TestParallelScanWhileDescriptorsChurn: parallel scans with tiny budgets
// (directories evicted, reopened and shared with batches), while other
// goroutines keep opening and closing a look-alike directory so that
// descriptor numbers are reused at once, equal the inline scan exactly and
// leak nothing: no batch reads through a descriptor closed under it.
func TestParallelScanWhileDescriptorsChurn(t *testing.T) {
	root := t.TempDir()
	decoy := t.TempDir()
	// wide-and-deep: 40 chains of depth 12, 3 files + sub per level
	for c := range 40 {
		p := fmt.Sprintf(".river/memory/c%02d", c)
		for l := range 12 {
			p += fmt.Sprintf("/l%d", l)
			for f := range 3 {
				write(t, root, fmt.Sprintf("%s/f%d.json", p, f), fmt.Sprintf(`{"timestamp":"2021-01-%02dT00:00:00Z"}`, 1+l), epoch)
				write(t, decoy, fmt.Sprintf("x/f%d.json", f), "{}", epoch)
			}
		}
	}
	for i := range 300 {
		write(t, root, fmt.Sprintf(".river/memory/flat/f%03d.json", i), `{"timestamp":"2022-01-01T00:00:00Z"}`, epoch)
	}
	rootfd, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(rootfd)
	want := scanWith(rootfd, skill.ScopeMemory, Options{Metadata: true}, maxBudget, 1).finish()
	before := openDescriptors(t) // before the churn, which holds one now and then
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				fd, err := unix.Open(decoy+"/x", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
				if err == nil {
					unix.Close(fd)
				}
			}
		}()
	}
	for iter := range 1 {
		for _, budget := range []int{1, 2, 3, 5} {
			for _, nw := range []int{2, 3, 8, 16} {
				got := scanWith(rootfd, skill.ScopeMemory, Options{Metadata: true}, budget, nw).finish()
				if !reflect.DeepEqual(got, want) {
					stop.Store(true)
					t.Fatalf("iter %d budget %d workers %d: %d files %d errs %d notes; want %d files (errs %v)", iter, budget, nw,
						len(got.Files), len(got.Errors), len(got.Notes), len(want.Files), got.Errors)
				}
			}
		}
	}
	stop.Store(true)
	wg.Wait()
	if after := openDescriptors(t); after != before {
		t.Errorf("descriptors %d after, %d before", after, before)
	}
}
