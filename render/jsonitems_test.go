package render

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/plangate-gc/plangate-gc/skill"
)

// decisions returns n removals of every reason, with paths that need
// escaping now and then.
func decisions(n int) []skill.Decision {
	ds := make([]skill.Decision, n)
	for i := range ds {
		ds[i] = skill.Decision{Path: fmt.Sprintf(".river/tmp/%07d\"\u2028.json", i), SizeBytes: uint64(i)}
		switch i % 3 {
		case 0:
			ds[i].Reason, ds[i].MtimeAge = skill.ReasonAge, int64(i)
		case 1:
			ds[i].Reason, ds[i].Rank = skill.ReasonCount, i+1
		default:
			ds[i].Reason, ds[i].Cumulative = skill.ReasonSize, skill.Bytes{}.Add(uint64(i))
		}
	}
	return ds
}

// TestAppendItemsChunksInOrder: the items rendered by the workers come out
// exactly as one loop over the removals writes them, at every count around
// the chunk boundaries and for both arrays.
func TestAppendItemsChunksInOrder(t *testing.T) {
	for _, n := range []int{0, 1, itemChunk, 3*itemChunk + 1, 4 * itemChunk, 9*itemChunk + 17} {
		ds := decisions(n)
		for name, item := range map[string]func([]byte, *skill.Decision) []byte{"removed": appendRemoved, "evidence": appendEvidence} {
			want := []byte("[")
			for i := range ds {
				want = comma(want, i)
				want = item(want, &ds[i])
			}
			var out bytes.Buffer
			rest, err := appendItems(&out, []byte("["), ds, item)
			if err != nil {
				t.Fatal(err)
			}
			out.Write(rest)
			if !bytes.Equal(out.Bytes(), want) {
				t.Errorf("%s, %d removals: the chunked output differs from the loop's (%d bytes, want %d)", name, n, out.Len(), len(want))
			}
		}
	}
}

// failAfter accepts n writes, then fails every write.
type failAfter struct{ n int }

var errWrite = errors.New("disk full")

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n == 0 {
		return 0, errWrite
	}
	f.n--
	return len(p), nil
}

// TestAppendItemsWriteError: a failing write ends the rendering with that
// error, whichever chunk it hits (a worker left waiting would deadlock
// the wait that ends appendItems).
func TestAppendItemsWriteError(t *testing.T) {
	ds := decisions(10 * itemChunk)
	for _, n := range []int{0, 1, 2, 5, 9} {
		if _, err := appendItems(&failAfter{n: n}, nil, ds, appendRemoved); !errors.Is(err, errWrite) {
			t.Errorf("write %d fails: got %v, want %v", n+1, err, errWrite)
		}
	}
}
