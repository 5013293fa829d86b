package record

import (
	"strconv"
	"testing"
)

// TestAppendQuotedIsStrconvs (decision 280): the fast path writes exactly
// strconv.AppendQuote's bytes, for every byte alone, in a path, next to
// a multi-byte rune and in invalid UTF-8.
func TestAppendQuotedIsStrconvs(t *testing.T) {
	cases := []string{"", ".river/tmp/chain-00/level-00/f-00.tmp", `a"b`, `a\b`, "a b", "é/ü", "\x7f", "\xff\xfe", "a\nb", "\u202e.tmp", "~ !"}
	for c := 0; c < 256; c++ {
		cases = append(cases, string([]byte{byte(c)}), "dir/"+string([]byte{byte(c)})+"/x")
	}
	for _, s := range cases {
		prefix := []byte("delete 1 2 3 4 ")
		got := string(appendQuoted(append([]byte(nil), prefix...), s))
		if want := string(strconv.AppendQuote(append([]byte(nil), prefix...), s)); got != want {
			t.Errorf("appendQuoted(%q) = %s, want %s", s, got, want)
		}
	}
}

// BenchmarkAppendLine is one intent line of issue 27's deep tree (a
// 250-byte path).
func BenchmarkAppendLine(b *testing.B) {
	p := ".river/tmp/chain-00"
	for l := range 20 {
		p += "/level-" + strconv.Itoa(10+l)
	}
	in := Intent{Op: Delete, Key: p + "/f-00.tmp", Tag: "64 123456 0 1735689600000000000"}
	b.ReportAllocs()
	var buf []byte
	for b.Loop() {
		buf = AppendLine(buf[:0], in)
	}
}
