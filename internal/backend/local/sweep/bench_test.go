//go:build linux

package sweep

import (
	"context"
	"fmt"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// BenchmarkDelete deletes 1,000 scanned files spread over 10 directories;
// creating them again is excluded from the timing. Modes: the protocol
// with openat2 or with the openat chain, the protocol without the private
// rename (as on a file system without renameat2), and the baseline — a
// plain unlinkat loop over the identical tree, no checks at all.
func BenchmarkDelete(b *testing.B) {
	names := make([]string, 0, 1000)
	for i := 0; i < 1000; i++ {
		names = append(names, fmt.Sprintf("artifacts/evals/run-%d/f%04d.json", i%10, i))
	}
	for _, mode := range []string{"openat2", "chain", "no-rename", "unlinkat-baseline"} {
		b.Run(mode, func(b *testing.B) {
			disableOpenat2 = mode == "chain"
			if mode == "no-rename" {
				renameat2 = func(int, string, int, string, uint) error { return unix.ENOSYS }
			}
			defer func() { disableOpenat2, renameat2 = false, nil }()
			benchDelete(b, b.TempDir(), names, "{}", mode == "unlinkat-baseline")
		})
	}
}

// BenchmarkDeleteFlat deletes 5,000 empty files of one directory (issue
// 27's flat layout, smaller), where every rename and unlink takes the
// same directory lock. The directory is made under
// $PLANGATE_GC_BENCH_DIR when set (a tmpfs, say), else in the test's
// temporary directory. "unlinkat-baseline" is find -delete's work: one
// unlinkat per file, no checks.
func BenchmarkDeleteFlat(b *testing.B) {
	names := make([]string, 0, 5000)
	for i := range cap(names) {
		names = append(names, fmt.Sprintf(".river/tmp/f-%05d.tmp", i))
	}
	for _, mode := range []string{"protocol", "unlinkat-baseline"} {
		b.Run(mode, func(b *testing.B) {
			root, err := os.MkdirTemp(os.Getenv("PLANGATE_GC_BENCH_DIR"), "sweep-flat")
			if err != nil {
				b.Fatal(err)
			}
			defer os.RemoveAll(root)
			benchDelete(b, root, names, "", mode == "unlinkat-baseline")
		})
	}
}

// benchDelete times Delete (or, for the baseline, one unlinkat per file)
// over the files names below root, written with content again before
// each iteration (not timed).
func benchDelete(b *testing.B, root string, names []string, content string, baseline bool) {
	rootfd := openRoot(b, root)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		targets := make([]Target, 0, len(names))
		for _, n := range names {
			write(b, root, n, content)
			targets = append(targets, target(b, root, n))
		}
		b.StartTimer()
		if baseline {
			for _, t := range targets {
				if err := unix.Unlinkat(rootfd, t.Path, 0); err != nil {
					b.Fatal(err)
				}
			}
			continue
		}
		rep := Delete(context.Background(), rootfd, targets, Options{})
		if len(rep.Deleted) != len(names) || len(rep.Errors) != 0 {
			b.Fatalf("deleted %d, errors %v", len(rep.Deleted), rep.Errors)
		}
	}
}
