package jsonnum

import (
	"math"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		lit                      string
		negative, zero, integral bool
		i64                      int64
		fits                     bool
	}{
		{"0", false, true, true, 0, true},
		{"-0", false, true, true, 0, true},
		{"-0.0e-5", false, true, true, 0, true},
		{"1.7e9", false, false, true, 1700000000, true},
		{"1700000000.0", false, false, true, 1700000000, true},
		{"0.5e1", false, false, true, 5, true},
		{"2.5", false, false, false, 0, false},
		{"-3", true, false, true, -3, true},
		{"1e-400", false, false, false, 0, false},
		{"1e400", false, false, true, 0, false},
		{"9223372036854775807", false, false, true, math.MaxInt64, true},
		{"9223372036854775808", false, false, true, 0, false},
		{"-9223372036854775808", true, false, true, math.MinInt64, true},
		{"1e999999999999999999999", false, false, true, 0, false},
		{"100e-2", false, false, true, 1, true},
	} {
		t.Run(tc.lit, func(t *testing.T) {
			n, ok := Parse(tc.lit)
			if !ok {
				t.Fatal("not parsed")
			}
			if n.Negative != tc.negative || n.Zero != tc.zero || n.Integral != tc.integral {
				t.Errorf("negative %v zero %v integral %v", n.Negative, n.Zero, n.Integral)
			}
			i, fits := n.Int64()
			if fits != tc.fits || i != tc.i64 {
				t.Errorf("Int64 = %d, %v", i, fits)
			}
			if n.Literal != tc.lit {
				t.Errorf("literal %q", n.Literal)
			}
		})
	}
	for _, bad := range []string{"", "-", "01", "1.", ".5", "1e", "1e+", "+1", "1x", "0x10", "NaN"} {
		if _, ok := Parse(bad); ok {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

func TestFloat64AndSafe(t *testing.T) {
	for _, tc := range []struct {
		lit  string
		f    float64
		safe string
	}{
		{"90", 90, "90"},
		{"1e400", math.Inf(1), "1e401"},
		{"-1e400", math.Inf(-1), "-1e401"},
		{"1e-400", 0, "0.5"},
		{"1.5e999999999", math.Inf(1), "1e401"},
		{"-2.5e450", math.Inf(-1), "-1e401"},
		{"1.25", 1.25, "1.25"},
	} {
		n := MustParse(tc.lit)
		if got := n.Float64(); got != tc.f {
			t.Errorf("%s: Float64 %v, want %v", tc.lit, got, tc.f)
		}
		if got := n.Safe(); got != tc.safe {
			t.Errorf("%s: Safe %q, want %q", tc.lit, got, tc.safe)
		}
	}
	long := "1." + string(repeat('0', 2000)) + "1"
	if s := MustParse(long).Safe(); s != "1.5" {
		t.Errorf("long fraction: Safe %q", s)
	}
	if s := MustParse("1." + string(repeat('0', 2000))).Safe(); s != "1" {
		t.Errorf("long integral: Safe %q", s)
	}
}

func repeat(c byte, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = c
	}
	return b
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"0", "-1.5e3", "1e400", "9007199254740991"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := Parse(s)
		if !ok {
			return
		}
		if i, fits := n.Int64(); fits && float64(i) != n.Float64() && math.Abs(float64(i)) < 1<<53 {
			t.Errorf("%q: Int64 %d disagrees with Float64 %v", s, i, n.Float64())
		}
		if safe := MustParse(n.Safe()); safe.Negative != n.Negative || safe.Zero != n.Zero || safe.Integral != n.Integral {
			t.Errorf("%q: Safe %q changes sign, zero or integrality", s, n.Safe())
		}
	})
}
