package gate

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// FuzzReader feeds arbitrary streams to the gate: it must never panic, and
// every document it accepts must be valid JSON (and valid UTF-8) on its
// own bytes. Seeded with every fixture input and a few streams.
func FuzzReader(f *testing.F) {
	inputs, _ := filepath.Glob(filepath.Join("..", "fixtures", "*", "input.json"))
	for _, p := range inputs {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{validDoc + validDoc, validDoc + "\n" + validDoc[:50], "", " ", ioDoc} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(bytes.NewReader(data))
		for docs := 0; ; docs++ {
			_, err := r.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			var verdict *Error
			switch {
			case errors.As(err, &verdict):
				if len(verdict.Problems) == 0 {
					t.Fatal("a gate failure without a reason")
				}
				continue
			case err != nil:
				t.Fatalf("a bytes.Reader cannot fail, got %v", err)
			}
			doc := data[r.start:r.end]
			if len(doc) < 2 || doc[0] != '{' || doc[len(doc)-1] != '}' {
				t.Fatalf("document %d accepted but its span is not one object: %q", docs+1, doc)
			}
			if !json.Valid(doc) || !utf8.Valid(doc) {
				t.Fatalf("document %d accepted but not valid JSON: %q", docs+1, doc)
			}
			if docs > len(data) {
				t.Fatal("more documents than bytes")
			}
		}
	})
}
