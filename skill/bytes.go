package skill

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
)

// Bytes is an exact non-negative byte total. Sizes reach 2^53−1 and a scope
// may hold millions of entries, so sums overflow int64 in valid inputs;
// 128 bits hold any sum of 2^64 such sizes without wrapping.
type Bytes struct{ hi, lo uint64 }

// Add returns b + n.
func (b Bytes) Add(n uint64) Bytes {
	lo, carry := bits.Add64(b.lo, n, 0)
	return Bytes{hi: b.hi + carry, lo: lo}
}

// Less reports whether b < o.
func (b Bytes) Less(o Bytes) bool {
	return b.hi < o.hi || (b.hi == o.hi && b.lo < o.lo)
}

// String renders the total as plain decimal digits.
func (b Bytes) String() string { return string(b.Append(nil)) }

// Append appends the total's decimal digits to dst. Totals below 2^64,
// all but the rarest, cost no allocation (one is rendered per size
// removal).
func (b Bytes) Append(dst []byte) []byte {
	if b.hi == 0 {
		return strconv.AppendUint(dst, b.lo, 10)
	}
	v := new(big.Int).SetUint64(b.hi)
	v.Lsh(v, 64)
	v.Or(v, new(big.Int).SetUint64(b.lo))
	return v.Append(dst, 10)
}

// floorBytes converts a non-negative double to floor(x) as Bytes, or reports
// unbounded when x is beyond 128 bits (then no sum can exceed it).
func floorBytes(x float64) (b Bytes, unbounded bool) {
	x = math.Floor(x)
	if math.IsInf(x, 1) || x >= 0x1p128 {
		return Bytes{}, true
	}
	if x < 0 {
		return Bytes{}, false
	}
	v, _ := new(big.Float).SetFloat64(x).Int(nil)
	lo := new(big.Int).And(v, new(big.Int).SetUint64(math.MaxUint64)).Uint64()
	hi := new(big.Int).Rsh(v, 64).Uint64()
	return Bytes{hi: hi, lo: lo}, false
}
