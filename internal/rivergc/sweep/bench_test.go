//go:build linux

package sweep

import (
	"context"
	"fmt"
	"testing"

	"golang.org/x/sys/unix"
)

// BenchmarkDelete deletes 1,000 scanned files spread over 10 directories;
// creating them again is excluded from the timing. Modes: the protocol
// with openat2 or with the openat chain, the protocol without the private
// rename (as on a file system without renameat2), and the baseline — a
// plain unlinkat loop over the identical tree, no checks at all.
func BenchmarkDelete(b *testing.B) {
	for _, mode := range []string{"openat2", "chain", "no-rename", "unlinkat-baseline"} {
		b.Run(mode, func(b *testing.B) {
			disableOpenat2 = mode == "chain"
			if mode == "no-rename" {
				renameat2 = func(int, string, int, string, uint) error { return unix.ENOSYS }
			}
			defer func() { disableOpenat2, renameat2 = false, unix.Renameat2 }()
			root := b.TempDir()
			rootfd := openRoot(b, root)
			names := make([]string, 0, 1000)
			for i := 0; i < 1000; i++ {
				names = append(names, fmt.Sprintf("artifacts/evals/run-%d/f%04d.json", i%10, i))
			}
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				targets := make([]Target, 0, len(names))
				for _, n := range names {
					write(b, root, n, "{}")
					targets = append(targets, target(b, root, n))
				}
				b.StartTimer()
				if mode == "unlinkat-baseline" {
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
		})
	}
}
