//go:build linux

package scan

import (
	"fmt"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/skill"
)

// TestScanWithinDescriptorLimit: with a soft limit of 96 descriptors and
// up to 32 workers, the parallel scan still lists every directory and
// reads every file's metadata: the directories pinned by batches and the
// workers are bounded by the budget too (pool.go). (An adversarial review
// found EMFILE here before they were, and files then judged by mtime.)
func TestScanWithinDescriptorLimit(t *testing.T) {
	root := t.TempDir()
	old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 1500 {
		write(t, root, fmt.Sprintf(".river/memory/d%04d/a.json", i), `{"timestamp":"2025-11-20T00:00:00Z"}`, old)
	}
	rootfd, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(rootfd)
	var saved unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &saved); err != nil {
		t.Fatal(err)
	}
	lim := saved
	lim.Cur = 96
	if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	defer unix.Setrlimit(unix.RLIMIT_NOFILE, &saved)
	for _, nw := range []int{1, 2, 8, 32} {
		res := scanWith(rootfd, skill.ScopeMemory, Options{Metadata: true}, descriptorBudget(), nw).finish()
		mtime := 0
		for _, f := range res.Files {
			if f.TimestampSource == SourceMtime {
				mtime++
			}
		}
		t.Logf("workers %d: files %d, errors %d, judged by mtime %d, notes %d", nw, len(res.Files), len(res.Errors), mtime, len(res.Notes))
		if len(res.Errors) != 0 || mtime != 0 || len(res.Files) != 1500 {
			t.Errorf("workers %d: %d of 1500 files, %d errors (first %v), %d judged by mtime instead of metadata",
				nw, len(res.Files), len(res.Errors), first(res.Errors), mtime)
		}
	}
}

func first[T any](s []T) any {
	if len(s) == 0 {
		return nil
	}
	return s[0]
}
