package eval

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/pipeline"
)

// FuzzJudge feeds arbitrary bytes through the whole skill: it must never
// panic or fail with anything but output, and every judged document must
// satisfy the invariants (guarded and excluded paths never removed,
// removed sorted and unique, one reason each, counts consistent).
func FuzzJudge(f *testing.F) {
	inputs, _ := filepath.Glob("../../fixtures/*/input.json")
	for _, p := range inputs {
		if data, err := os.ReadFile(p); err == nil && len(data) < 1<<16 {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		out, err := Production(input, pipeline.Options{JSON: true})
		if err != nil {
			t.Fatalf("judge failed on in-memory input: %v", err)
		}
		for _, msg := range checkInvariants(input, out) {
			t.Error(msg)
		}
		if _, err := Production(input, pipeline.Options{}); err != nil {
			t.Fatalf("text rendering failed: %v", err)
		}
	})
}
