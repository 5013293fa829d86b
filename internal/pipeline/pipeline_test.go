package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/synth"
	"github.com/plangate-gc/plangate-gc/render"
)

// shaped generates the document of n entries in the given shape.
func shaped(n int, shape synth.Shape) []byte {
	var b bytes.Buffer
	if err := synth.InventoryShape(&b, n, shape); err != nil {
		panic(err)
	}
	return b.Bytes()
}

var sizes = []int{10_000, 100_000, 1_000_000}

// eachDocument runs bench on the document of every shape and size, as
// sub-benchmarks SHAPE/entries=N (the same names for BenchmarkJudge and
// its yardstick, so that bench/run.sh pairs them). A document is built
// only when its sub-benchmark is selected.
func eachDocument(b *testing.B, bench func(b *testing.B, doc []byte)) {
	for _, shape := range synth.Shapes {
		b.Run(shape.Name, func(b *testing.B) {
			for _, n := range sizes {
				b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
					doc := shaped(n, shape)
					b.SetBytes(int64(len(doc)))
					b.ReportAllocs()
					b.ResetTimer()
					bench(b, doc)
				})
			}
		})
	}
}

// BenchmarkJudge measures the whole skill from input bytes to rendered
// JSON: gate (parse + schema), judgement, rendering, on every shape of
// internal/synth (compact and laid out like the fixtures, each in path
// order and shuffled: a shuffled million entries was 2.9× the CPU of the
// decode while the compact row in path order read 0.87×).
func BenchmarkJudge(b *testing.B) {
	eachDocument(b, func(b *testing.B, doc []byte) {
		for b.Loop() {
			if err := Run(bytes.NewReader(doc), io.Discard, io.Discard, Options{JSON: true, Lang: render.Japanese}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkBaselineDecode is the yardstick for BenchmarkJudge in the same
// run: only decoding the same bytes with encoding/json into typed structs.
func BenchmarkBaselineDecode(b *testing.B) {
	type entry struct {
		Path      string `json:"path"`
		SizeBytes int64  `json:"sizeBytes"`
		Mtime     *int64 `json:"mtimeEpoch"`
	}
	var doc struct {
		Inventory struct {
			Scope string  `json:"scope"`
			Paths []entry `json:"paths"`
		} `json:"inventory"`
	}
	eachDocument(b, func(b *testing.B, data []byte) {
		for b.Loop() {
			if err := json.Unmarshal(data, &doc); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestRunShuffledDocumentsAreIndependent: documents in a stream do not
// influence each other's output.
func TestRunShuffledDocumentsAreIndependent(t *testing.T) {
	a := `{"inventory":{"scope":"tmp","paths":[{"path":".river/tmp/x","sizeBytes":1,"mtimeEpoch":1}]},"retention":{"days":1,"maxEntries":1,"maxSizeMb":1},"now":1764374400}`
	bdoc := strings.Replace(a, `"tmp"`, `"memory"`, 1)
	run := func(in string) string {
		var out bytes.Buffer
		if err := Run(strings.NewReader(in), &out, io.Discard, Options{Lang: render.Japanese}); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	ab, ba := run(a+"\n"+bdoc), run(bdoc+"\n"+a)
	if ab != run(a)+run(bdoc) || ba != run(bdoc)+run(a) {
		t.Errorf("stream output is not the concatenation of per-document outputs:\n%s\n%s", ab, ba)
	}
}
