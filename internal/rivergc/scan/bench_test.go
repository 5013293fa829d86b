//go:build linux

package scan

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"testing"

	"github.com/plangate-gc/plangate-gc/skill"
)

// benchFiles is the size of the generated tree (SCAN_BENCH_FILES
// overrides the default of 30,000).
func benchFiles(b *testing.B) int {
	if s := os.Getenv("SCAN_BENCH_FILES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 100 {
			b.Fatalf("SCAN_BENCH_FILES=%q: want an integer ≥ 100", s)
		}
		return n
	}
	return 30_000
}

// benchTree writes n files in directories of 100 below .river/memory,
// half of them JSON artifacts with a metadata timestamp.
func benchTree(b *testing.B, n int) string {
	root := b.TempDir()
	for i := range n {
		p := fmt.Sprintf(".river/memory/d%04d/f%03d", i/100, i%100)
		if i%2 == 0 {
			write(b, root, p+".json", `{"id":"x","metadata":{"createdAt":"2025-06-01T00:00:00Z","tags":["a","b"]},"body":{"text":"hello"}}`, epoch)
		} else {
			write(b, root, p+".bin", "0123456789", epoch)
		}
	}
	return root
}

// BenchmarkScan scans the generated tree with and without metadata
// reading, and runs `find -type f -printf ... | sort` on the same tree as
// the yardstick (SPEC issue 11: a dry run within 1.3x of it). ns/file and
// B/file are per file scanned.
func BenchmarkScan(b *testing.B) {
	n := benchFiles(b)
	root := benchTree(b, n)
	for _, meta := range []bool{false, true} {
		b.Run(fmt.Sprintf("metadata=%v", meta), func(b *testing.B) {
			b.ReportAllocs()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for b.Loop() {
				res := scanRoot(b, root, skill.ScopeMemory, Options{Metadata: meta})
				if len(res.Files) != n || len(res.Errors) != 0 {
					b.Fatalf("files %d errors %v", len(res.Files), res.Errors)
				}
			}
			runtime.ReadMemStats(&after)
			perFile(b, n)
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(n), "B/file")
		})
	}
	b.Run("find-sort", func(b *testing.B) {
		if _, err := exec.LookPath("find"); err != nil {
			b.Skip("no find(1)")
		}
		for b.Loop() {
			cmd := exec.Command("sh", "-c", `find "$1" -type f -printf '%s %T@ %p\n' | LC_ALL=C sort >/dev/null`, "sh", root+"/.river/memory")
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("%v: %s", err, out)
			}
		}
		perFile(b, n)
	})
}

// perFile reports the time and allocated bytes per file of one run.
func perFile(b *testing.B, n int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/file")
}
