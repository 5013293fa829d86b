package gate

import (
	"errors"
	"io"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"
)

// ioDoc passes the gate and exercises every way the parser reads: spaces
// after values, literals, numbers, escapes, raw UTF-8, and a container too
// deep to build (skipped, still read), which is its only fault.
var ioDoc = `{"inventory" : {"scope": "memory", "paths": [ {"path": ".river/memory/a\u00e9\"é.json" , "sizeBytes": 1e0 ,` +
	` "mtimeEpoch": null , "type": "file"} ]} , "retention": {"days": 90, "maxEntries": 1000, "maxSizeMb": 0.5} ,` +
	` "now": 1764374400, "x": [true , false , null ], "deep": ` + strings.Repeat("[ ", 70) + `1 ` + strings.Repeat("] ", 70) + ` }`

// TestReadFailureIsNotAVerdict cuts the stream at every byte of a document
// and makes the reader fail there with EIO: the gate must report a
// *ReadError (never a syntax error or NO_REVIEW), and keep reporting it.
func TestReadFailureIsNotAVerdict(t *testing.T) {
	if got := outcomes(t, ioDoc); len(got) != 1 || got[0] != "too-deep /deep"+strings.Repeat("/0", 63) {
		t.Fatalf("uncut document: %q, want only its depth verdict", got)
	}
	for k := 0; k <= len(ioDoc); k++ {
		r := NewReader(io.MultiReader(strings.NewReader(ioDoc[:k]), iotest.ErrReader(syscall.EIO)))
		_, err := r.Next()
		if k == len(ioDoc) { // the document is complete before the failure
			var ge *Error
			if !errors.As(err, &ge) {
				t.Fatalf("complete document: got %v, want its verdict", err)
			}
			_, err = r.Next()
		}
		var re *ReadError
		if !errors.As(err, &re) || !errors.Is(err, ErrRead) || !errors.Is(err, syscall.EIO) {
			t.Fatalf("cut at byte %d (%q…): got %T %v, want a *ReadError wrapping EIO", k, ioDoc[max(0, k-10):k], err, err)
		}
		if _, again := r.Next(); !errors.Is(again, syscall.EIO) {
			t.Fatalf("cut at byte %d: the next call returned %v", k, again)
		}
	}
}

// TestReadFailureAfterDocuments: documents completed before the failure
// are delivered; the failure comes after them.
func TestReadFailureAfterDocuments(t *testing.T) {
	stream := validDoc + "\n" + validDoc + "\n" + validDoc[:40]
	r := NewReader(io.MultiReader(strings.NewReader(stream), iotest.ErrReader(syscall.EIO)))
	for i := range 2 {
		if _, err := r.Next(); err != nil {
			t.Fatalf("document %d: %v", i+1, err)
		}
	}
	_, err := r.Next()
	var re *ReadError
	if !errors.As(err, &re) || re.Doc != 3 || re.Offset != 40 {
		t.Fatalf("got %#v, want a *ReadError in document 3 at byte 40", err)
	}
}
