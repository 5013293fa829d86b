package stores

import (
	"bytes"
	"errors"
	"testing"
)

// failingWriter takes up to room bytes, then fails every write.
type failingWriter struct {
	got    bytes.Buffer
	room   int
	failed bool // a write failed
	after  int  // writes after the failed one
}

var errFull = errors.New("no space left")

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.failed {
		w.after++
	}
	n := min(len(p), w.room-w.got.Len())
	w.got.Write(p[:n])
	if n < len(p) {
		w.failed = true
		return n, errFull
	}
	return n, nil
}

// TestWriteSplicedStopsAtTheFirstError (decision 268): the streamed copy
// is Splice's bytes, and a writer that fails part-way has received a
// prefix of them, counted exactly, and no write after the failing one.
func TestWriteSplicedStopsAtTheFirstError(t *testing.T) {
	index := []byte("{\"entries\": [ {\"id\":\"a\"},{\"id\" : \"b\"} ,\n\t{\"id\":\"c\"}, {\"id\":\"d\"} ], \"version\":\"1\"}\n")
	mem, err := ParseMemory(store, index, now)
	if err != nil {
		t.Fatal(err)
	}
	lines := []byte("{\"timestamp\":\"2020-01-01T00:00:00Z\"}\n\n{\"timestamp\":\"2020-01-02T00:00:00Z\"}\r\nx\n{}\n{}\n")
	for name, c := range map[string]struct {
		st   Store
		data []byte
	}{"index": {mem, index}, "ledger": {ParseLedger(ledger, lines), lines}} {
		for mask := 0; mask < 1<<len(c.st.Entries); mask++ {
			removed := make([]bool, len(c.st.Entries))
			for i := range removed {
				removed[i] = mask&(1<<i) != 0
			}
			want := c.st.Splice(c.data, removed)
			for room := 0; room <= len(want); room++ {
				w := &failingWriter{room: room}
				n, err := c.st.WriteSpliced(w, c.data, removed)
				full := room == len(want)
				if full != (err == nil) || (!full && !errors.Is(err, errFull)) {
					t.Fatalf("%s mask %b room %d: err %v", name, mask, room, err)
				}
				if n != int64(w.got.Len()) || !bytes.HasPrefix(want, w.got.Bytes()) || w.got.Len() != room || w.after != 0 {
					t.Fatalf("%s mask %b room %d: wrote %d (%d writes after the error), %q of %q", name, mask, room, n, w.after, w.got.Bytes(), want)
				}
			}
			if n := c.st.SplicedLen(c.data, removed); n != len(want) {
				t.Fatalf("%s mask %b: SplicedLen %d, Splice %d bytes", name, mask, n, len(want))
			}
		}
	}
}
