package plan

import "testing"

// TestStrReadsWhatRenderWrites: a plan's strings read back to their
// bytes: escapes by name, \u escapes, a surrogate pair, \udcHH as the
// byte HH that was not UTF-8, a lone high surrogate as U+FFFD (the next
// escape then read on its own, as JSON.parse reads it); a bad escape is
// refused.
func TestStrReadsWhatRenderWrites(t *testing.T) {
	for lit, want := range map[string]string{
		`"plain"`:                    "plain",
		`"a\"b\\c\/d\b\f\n\r\t"`:     "a\"b\\c/d\b\f\n\r\t",
		`"caf\u00e9 \ud83d\ude00"`:   "café 😀",
		`"\udc80\udcff"`:             "\x80\xff",
		`"\ud800\u0041"`:             "\uFFFDA",
		`"\ud800"`:                   "\uFFFD",
		`"\uD83D\uDE00\ud83d\udc80"`: "😀\U0001F480",
	} {
		var s str
		if err := s.UnmarshalJSON([]byte(lit)); err != nil || string(s) != want {
			t.Errorf("%s: %q, %v; want %q", lit, s, err, want)
		}
	}
	for _, lit := range []string{`"\x"`, `"\u12"`, `"\u12g4"`, `"a\"`, `"\ud800\u12"`} {
		var s str
		if err := s.UnmarshalJSON([]byte(lit)); err == nil {
			t.Errorf("%s: read as %q", lit, s)
		}
	}
}

// BenchmarkStrEscaped reads a plan string holding every kind of escape.
func BenchmarkStrEscaped(b *testing.B) {
	lit := []byte(`".river/memory/caf\u00e9 \"q\" \ud83d\ude00 \udc80 \t/000123.json"`)
	b.SetBytes(int64(len(lit)))
	for b.Loop() {
		var s str
		if err := s.UnmarshalJSON(lit); err != nil {
			b.Fatal(err)
		}
	}
}
