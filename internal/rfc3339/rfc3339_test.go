package rfc3339

import (
	"regexp"
	"strings"
	"testing"
	"time"
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

// dateTime is RFC 3339's date-time production, the reference the scanner
// is held to.
var dateTime = regexp.MustCompile(`^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt]([01]\d|2[0-3]):([0-5]\d):([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$`)

// reference is the former regexp + time.Parse implementation.
func reference(s string) (int64, bool) {
	m := dateTime.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	leap := m[6] == "60"
	norm := strings.ToUpper(s)
	if leap {
		norm = norm[:17] + "59" + norm[19:]
	}
	t, err := time.Parse(time.RFC3339Nano, norm)
	if err != nil {
		return 0, false
	}
	if leap {
		t = t.Add(time.Second)
	}
	return t.Unix(), true
}

// FuzzUnix holds the scanner to the grammar's reference.
func FuzzUnix(f *testing.F) {
	for _, s := range []string{"2025-11-29T00:00:00Z", "2016-12-31T23:59:60-00:30", "1969-12-31T23:59:59.5Z",
		"2020-02-29T12:00:00.123456789+14:00", "2021-02-29T00:00:00Z", "0000-01-01T00:00:00Z", "2020-01-01T00:00:00.Z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := Unix(s)
		want, wok := reference(s)
		if ok != wok || got != want {
			t.Errorf("Unix(%q) = %d, %v; reference %d, %v", s, got, ok, want, wok)
		}
	})
}

// TestUnixAgreesWithReference compares the scanner with the reference on
// mutations of valid timestamps (a deterministic walk, no randomness).
func TestUnixAgreesWithReference(t *testing.T) {
	bases := []string{"2025-11-29T00:00:00Z", "2016-12-31T23:59:60+09:30", "1969-12-31T23:59:59.5z", "2020-02-29t12:00:00.1-23:59"}
	alphabet := "0123456789-+:.TtZz ,"
	for _, b := range bases {
		for i := 0; i <= len(b); i++ {
			for _, c := range alphabet {
				for _, s := range []string{b[:i] + string(c) + b[i:], b[:i] + string(c) + b[min(i+1, len(b)):], b[:i]} {
					got, ok := Unix(s)
					want, wok := reference(s)
					if ok != wok || got != want {
						t.Errorf("Unix(%q) = %d, %v; reference %d, %v", s, got, ok, want, wok)
					}
				}
			}
		}
	}
}
