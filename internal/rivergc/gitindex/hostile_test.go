//go:build linux

package gitindex

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// hugeRun is an EWAH bitmap of 12+8 bytes claiming 2^32 set bits
// (one run-length word of 2^26 words of ones): 32 GiB of positions, decoded naively.
func hugeRun() []byte {
	b := binary.BigEndian.AppendUint32(nil, 0xffffffff) // bit count
	b = binary.BigEndian.AppendUint32(b, 1)             // one word
	b = binary.BigEndian.AppendUint64(b, 1<<26<<1|1)
	return binary.BigEndian.AppendUint32(b, 0) // position of the last run-length word
}

// emptyBitmap is an EWAH bitmap of no bits.
func emptyBitmap() []byte { return make([]byte, 12) }

// hostileSplit returns a split index (about 100 bytes) whose link
// deletes 2^32−1 entries of the shared index shared, and that shared
// index.
func hostileSplit(deleted, replaced []byte) (split, shared []byte) {
	shared = encode(2, []string{"a"})
	name := shared[len(shared)-sha1Size:]
	link := "link" + string(name) + string(deleted) + string(replaced)
	return encode(2, nil, link), shared
}

func TestHostileSplitIndexBitmapsAllocateNothing(t *testing.T) {
	for name, bitmaps := range map[string][2][]byte{
		"deleted":  {hugeRun(), emptyBitmap()},
		"replaced": {emptyBitmap(), hugeRun()},
	} {
		t.Run(name, func(t *testing.T) {
			split, shared := hostileSplit(bitmaps[0], bitmaps[1])
			if len(split) > 128 {
				t.Fatalf("the hostile index is %d bytes, want ≤ 128", len(split))
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			ix, err := parseIndex(split, sha1Size)
			if err != nil {
				t.Fatal(err)
			}
			sh, err := parseIndex(shared, sha1Size)
			if err != nil {
				t.Fatal(err)
			}
			merged, err := mergeShared(ix, sh)
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrCorrupt) || merged != nil {
				t.Fatalf("mergeShared = %v, %v; want nil, ErrCorrupt", merged, err)
			}
			if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
				t.Errorf("decoding allocated %d bytes, want < 1 MiB", n)
			}
		})
	}
}

// TestEwahBitsBounded decodes bitmaps against a bound of entries: set
// bits at or beyond it are ErrCorrupt, below it they are all returned.
func TestEwahBitsBounded(t *testing.T) {
	lit := binary.BigEndian.AppendUint32(nil, 64)
	lit = binary.BigEndian.AppendUint32(lit, 2)
	lit = binary.BigEndian.AppendUint64(lit, 1<<33) // no run, one literal word
	lit = binary.BigEndian.AppendUint64(lit, 0b1010)
	lit = binary.BigEndian.AppendUint32(lit, 0)
	if got, err := ewahBits(lit, 4); err != nil || len(got) != 2 || got[0] != 1 || got[1] != 3 {
		t.Errorf("ewahBits(limit 4) = %v, %v; want [1 3]", got, err)
	}
	if got, err := ewahBits(lit, 3); !errors.Is(err, ErrCorrupt) {
		t.Errorf("ewahBits(limit 3) = %v, %v; want ErrCorrupt", got, err)
	}
	if _, _, err := ewahSplit(lit[:len(lit)-9]); !errors.Is(err, ErrCorrupt) {
		t.Errorf("ewahSplit(truncated) = %v, want ErrCorrupt", err)
	}
}

// TestReadAtNeverWaitsNorTrustsSize: a FIFO is refused without blocking,
// a symlink is not followed, a sparse file larger than the cap is refused
// before a byte is read, and a small file is read whole.
func TestReadAtNeverWaitsNorTrustsSize(t *testing.T) {
	dir := t.TempDir()
	if err := unix.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "sparse"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(200 << 30); err != nil {
		t.Skipf("no sparse files here: %v", err)
	}
	f.Close()
	if err := os.WriteFile(filepath.Join(dir, "small"), []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("small", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	dfd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(dfd)
	for name, want := range map[string]error{"fifo": ErrNotRegular, "link": ErrNotRegular, "sparse": ErrTooLarge} {
		if data, err := readAt(dfd, name, -1); !errors.Is(err, want) || data != nil {
			t.Errorf("readAt(%s) = %d bytes, %v; want %v", name, len(data), err, want)
		}
	}
	if data, err := readAt(dfd, "small", 4); !errors.Is(err, ErrTooLarge) {
		t.Errorf("readAt(small, limit 4) = %q, %v; want ErrTooLarge", data, err)
	}
	if data, err := readAt(dfd, "small", -1); err != nil || string(data) != "hello" {
		t.Errorf("readAt(small) = %q, %v", data, err)
	}
}

// FuzzEwahBits checks that no bitmap panics the split-index decoder, that
// every failure is ErrCorrupt, and that a decoded bitmap never holds more
// positions than the bound, ascending and below it.
func FuzzEwahBits(f *testing.F) {
	f.Add(hugeRun(), uint32(1))
	f.Add(emptyBitmap(), uint32(0))
	f.Fuzz(func(t *testing.T, b []byte, limit uint32) {
		bitmap, _, err := ewahSplit(b)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("ewahSplit: %v, want ErrCorrupt", err)
			}
			return
		}
		set, err := ewahBits(bitmap, uint64(limit%(1<<16)))
		if err != nil {
			if !errors.Is(err, ErrCorrupt) || set != nil {
				t.Fatalf("ewahBits = %d positions, %v; want none, ErrCorrupt", len(set), err)
			}
			return
		}
		for i, p := range set {
			if p >= uint64(limit%(1<<16)) || (i > 0 && p <= set[i-1]) {
				t.Fatalf("position %d (#%d) out of order or beyond %d", p, i, limit%(1<<16))
			}
		}
	})
}
