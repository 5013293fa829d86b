package sweep

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkDelete deletes 1,000 scanned files spread over 10 directories;
// creating them again is excluded from the timing.
func BenchmarkDelete(b *testing.B) {
	for _, mode := range []string{"openat2", "chain"} {
		b.Run(mode, func(b *testing.B) {
			disableOpenat2 = mode == "chain"
			defer func() { disableOpenat2 = false }()
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
				rep := Delete(context.Background(), rootfd, targets, Options{})
				if len(rep.Deleted) != len(names) || len(rep.Errors) != 0 {
					b.Fatalf("deleted %d, errors %v", len(rep.Deleted), rep.Errors)
				}
			}
		})
	}
}
