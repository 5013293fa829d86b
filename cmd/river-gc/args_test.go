//go:build linux

package main

import (
	"slices"
	"strings"
	"testing"
)

// TestPullRepeated: the repeatable flags are taken out in order, in both
// plain forms; a value that looks like a flag and anything after "--" stay
// for kong, so its errors keep their meaning.
func TestPullRepeated(t *testing.T) {
	t.Parallel()
	args := []string{"--exclude", "a/**", "--force", "--exclude=b", "--scope", "memory", "--explain=x",
		"--exclude", "-oops", "--", "--exclude=c"}
	rest, got := pullRepeated(args, "exclude", "scope", "explain")
	if want := []string{"--force", "--exclude", "-oops", "--", "--exclude=c"}; !slices.Equal(rest, want) {
		t.Errorf("rest = %q, want %q", rest, want)
	}
	if !slices.Equal(got["exclude"], []string{"a/**", "b"}) || !slices.Equal(got["scope"], []string{"memory"}) ||
		!slices.Equal(got["explain"], []string{"x"}) {
		t.Errorf("values = %q", got)
	}
}

// BenchmarkManyExcludes: 10,000 --exclude flags parse in linear time (kong
// alone took seconds, quadratic in the count).
func BenchmarkManyExcludes(b *testing.B) {
	b.ReportAllocs()
	args := strings.Fields(strings.Repeat("--exclude=**/**/**/a*b*c* ", 10000))
	for b.Loop() {
		rest, _ := pullRepeated(args, "exclude", "scope", "explain")
		if len(rest) != 0 {
			b.Fatal(rest)
		}
	}
}
