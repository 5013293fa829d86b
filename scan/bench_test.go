package scan

import (
	"fmt"
	"testing"

	"github.com/plangate-gc/plangate-gc/skill"
)

// BenchmarkScan scans 10,000 files in 100 directories, half of them JSON
// artifacts with a metadata timestamp, with and without metadata reading.
func BenchmarkScan(b *testing.B) {
	root := b.TempDir()
	for d := 0; d < 100; d++ {
		for i := 0; i < 100; i++ {
			p := fmt.Sprintf(".river/memory/d%03d/f%03d", d, i)
			if i%2 == 0 {
				write(b, root, p+".json", `{"id":"x","metadata":{"createdAt":"2025-06-01T00:00:00Z","tags":["a","b"]},"body":{"text":"hello"}}`, epoch)
			} else {
				write(b, root, p+".bin", "0123456789", epoch)
			}
		}
	}
	for _, meta := range []bool{true, false} {
		b.Run(fmt.Sprintf("metadata=%v", meta), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res := scanRoot(b, root, skill.ScopeMemory, Options{Metadata: meta})
				if len(res.Files) != 10000 || len(res.Errors) != 0 {
					b.Fatalf("files %d errors %v", len(res.Files), res.Errors)
				}
			}
		})
	}
}
