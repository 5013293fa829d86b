package report

import "testing"

func TestHumanBytes(t *testing.T) {
	for in, want := range map[string]string{"0": "0 B", "1023": "1023 B", "1024": "1.0 KiB", "1572864": "1.5 MiB",
		"18446744073709551616": "16.0 EiB"} {
		if got := HumanBytes(in); got != want {
			t.Errorf("HumanBytes(%s) = %q, want %q", in, got, want)
		}
	}
}
