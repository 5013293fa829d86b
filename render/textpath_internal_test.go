package render

import (
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// upstreamLine is River Review's line-comment pattern (review-engine.mjs);
// (?s) is left out as there: '.' does not cross a line feed.
var upstreamLine = regexp.MustCompile(`^(.+?):(\d+):\s*(.+)$`)

// TestTextPathReadsBack: for random paths over an alphabet of the
// dangerous characters, the REMOVE line's file as upstream's pattern reads
// it is the path itself, or a JSON literal of it with no ':' inside.
func TestTextPathReadsBack(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 5))
	alphabet := []string{"a", "7", ":", " ", "\n", "\r", "\t", `"`, `\`, "\u00a0", "\ufeff", "\u202e", "\x00", "\x7f", "é"}
	for range 50000 {
		var b strings.Builder
		for range 1 + rng.IntN(7) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		p := b.String()
		shown := textPath(p)
		line := strings.TrimFunc(shown+":0: [severity=minor] reason=age", trimmed)
		if strings.ContainsAny(line, "\n\r\u2028\u2029") {
			t.Fatalf("%q: the line %q breaks", p, line)
		}
		m := upstreamLine.FindStringSubmatch(line)
		if m == nil || m[2] != "0" {
			t.Fatalf("%q: upstream's pattern reads %q from %q", p, m, line)
		}
		if shown == p {
			if m[1] != p {
				t.Fatalf("%q shown raw but read as %q", p, m[1])
			}
			continue
		}
		var back string
		if m[1] != shown || json.Unmarshal([]byte(shown), &back) != nil || back != p || strings.Contains(shown, ":") {
			t.Fatalf("%q shown as %s, read as %q, decodes to %q", p, shown, m[1], back)
		}
	}
}

// TestQuotedPathForms pins the quoting decisions the random test cannot
// reach: a leading quote, lone surrogates, bytes that are not UTF-8.
func TestQuotedPathForms(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`"a"`, `"\"a\""`},
		{`a"b"`, `a"b"`},
		{"a\xed\xa0\x80b", `"a\ud800b"`},
		{"a\xffb", `"a\ufffdb"`},
		{"x:1", `"x\u003a1"`},
		{"x:1y", "x:1y"},
		{"", ""},
		{"a\u200db", "a\u200db"}, // a joiner inside emoji: not quoted
		{"a\u200d:1:", `"a\u200d\u003a1\u003a"`},
	} {
		if got := textPath(tc.in); got != tc.want {
			t.Errorf("textPath(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
