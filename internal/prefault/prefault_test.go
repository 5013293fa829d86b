package prefault

import (
	"slices"
	"testing"
)

// TestSliceKeepsTheZeros: Slice changes no value of a fresh slice,
// whatever its element size, length and capacity (smaller than a page,
// not a multiple of one, with pointers), and a slice it wrote into stays
// usable as the allocation it is.
func TestSliceKeepsTheZeros(t *testing.T) {
	type rec struct {
		name string
		n    int64
		p    *int
	}
	for _, n := range []int{0, 1, 100, 4095, 4096, 4097, 3*4096 + 7, 1 << 20} {
		b := make([]byte, 0, n)
		Slice(b)
		if !slices.Equal(b[:n], make([]byte, n)) {
			t.Fatalf("[]byte cap %d: a byte changed", n)
		}
		r := make([]rec, n/8, n/4+1)
		Slice(r)
		for i, x := range r[:cap(r)] {
			if x != (rec{}) {
				t.Fatalf("[]rec cap %d: element %d is %+v", cap(r), i, x)
			}
		}
		v := 7
		r = append(r, rec{name: "x", n: 1, p: &v})
		if got := r[len(r)-1]; got.name != "x" || *got.p != 7 {
			t.Fatalf("[]rec cap %d: appended %+v", cap(r), got)
		}
	}
}
