package rfc3339

import (
	"testing"

	_ "github.com/plangate-gc/plangate-gc/internal/golden"
)

func TestUnix(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"2025-11-29T00:00:00Z", 1764374400, true},
		{"2025-11-29t00:00:00z", 1764374400, true},
		{"2025-11-29T09:00:00+09:00", 1764374400, true},
		{"2025-11-29T00:00:00.999Z", 1764374400, true},
		{"1969-12-31T23:59:59.5Z", -1, true},
		{"2016-12-31T23:59:60Z", 1483228800, true},
		{"2020-01-01T00:00:00+24:00", 0, false},
		{"2020-01-01T00:00:00,5Z", 0, false},
		{"2020-02-30T00:00:00Z", 0, false},
		{"2020-01-01 00:00:00Z", 0, false},
		{"2020-01-01T00:00:00", 0, false},
		{"yesterday", 0, false},
	} {
		got, ok := Unix(tc.in)
		if ok != tc.ok || got != tc.want {
			t.Errorf("Unix(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
