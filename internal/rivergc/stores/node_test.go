package stores

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"testing"
	"unicode/utf16"
)

// These tests hold the reader's JavaScript pieces to Node itself: the
// same bytes through Buffer's UTF-8 decoding, JSON.parse, trim and
// new Date, compared code unit by code unit.

// nodeEval runs a Node script with the cases (base64) on stdin and
// decodes its one JSON answer.
func nodeEval(t *testing.T, env []string, script string, cases [][]byte, out any) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH (install Node 20 to run the JavaScript differential tests)")
	}
	in := make([]string, len(cases))
	for i, c := range cases {
		in[i] = base64.StdEncoding.EncodeToString(c)
	}
	data, _ := json.Marshal(in)
	cmd := exec.Command(node, "-e", `const input = JSON.parse(require('fs').readFileSync(0, 'utf8')).map((b) => Buffer.from(b, 'base64').toString('utf-8'));
const units = (s) => Array.from({ length: s.length }, (_, i) => s.charCodeAt(i));
`+script)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = bytes.NewReader(data)
	res, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	if err := json.Unmarshal(res, out); err != nil {
		t.Fatalf("node's answer: %v", err)
	}
}

// pieces are the fragments random strings are built from: the traps of
// SPEC B6 (invalid UTF-8, lone and paired surrogate escapes, BOM, NEL,
// LS/PS, every kind of JavaScript white space) among ordinary text.
var pieces = []string{"a", "Z", "0", " ", "\t", "\r", "\v", "\f", `\"`, `\\`, `\/`, `\n`, `\u0041`, `\uD800`, `\udfff`,
	`\uD83D\uDE00`, `\uDE00\uD83D`, `\ud800\u0041`, "é", "😀", "\xE2\x82", "\xE2\x82\xAC", "\xF0\x90\x80", "\xED\xA0\x80",
	"\xC0\xAF", "\xF4\x90\x80\x80", "\xFF", "\x80", "\xEF\xBB\xBF", "\xC2\x85", "\xC2\xA0", "\xE1\x9A\x80", "\xE2\x80\x8A",
	"\xE2\x80\x8B", "\xE2\x80\xA8", "\xE2\x80\xA9", "\xE2\x80\xAF", "\xE2\x81\x9F", "\xE3\x80\x80", "\xE1\xA0\x8E", "\xE2\xE2\x80\x80"}

func randomText(rng *rand.Rand, n int) []byte {
	var b []byte
	for range rng.IntN(n) {
		b = append(b, pieces[rng.IntN(len(pieces))]...)
	}
	return b
}

// TestStringsAsJSONParse: a JSON string literal is accepted exactly when
// JSON.parse accepts it, and decodes to the same UTF-16 code units.
func TestStringsAsJSONParse(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := [][]byte{[]byte(`"\u00"`), []byte(`"\x"`), []byte("\"a\x01\""), []byte(`"\uD800\uDC00"`), []byte(`"\U0041"`)}
	for range 3000 {
		cases = append(cases, append(append([]byte{'"'}, randomText(rng, 12)...), '"'))
	}
	var want [][]int
	nodeEval(t, nil, `console.log(JSON.stringify(input.map((s) => { try { const v = JSON.parse(s); return units(v) } catch { return null } })))`, cases, &want)
	for i, c := range cases {
		r := reader{b: c}
		raw, ok := r.str()
		ok = ok && r.i == len(c)
		switch {
		case ok != (want[i] != nil):
			t.Errorf("%q: reader accepts=%v, JSON.parse %v", c, ok, want[i] != nil)
		case ok:
			var got []int
			for _, u := range codeUnits(nil, decodeString(raw)) {
				got = append(got, int(u))
			}
			if !slices.Equal(got, want[i]) {
				t.Errorf("%q: code units %x, JavaScript %x", c, got, want[i])
			}
		}
	}
}

// TestTrimAsJavaScript: jsTrim keeps exactly what String.prototype.trim
// keeps of each decoded line.
func TestTrimAsJavaScript(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var cases [][]byte
	for range 3000 {
		cases = append(cases, randomText(rng, 8))
	}
	var want [][]int
	nodeEval(t, nil, `console.log(JSON.stringify(input.map((s) => units(s.trim()))))`, cases, &want)
	for i, c := range cases {
		from, to := jsTrim(c, 0, len(c))
		var got []int
		for _, u := range utf16.Encode(decodeAll(c[from:to])) {
			got = append(got, int(u))
		}
		if !slices.Equal(got, want[i]) {
			t.Errorf("%q: trimmed to %x, JavaScript %x", c, got, want[i])
		}
	}
}

// decodeAll is the WHATWG decoding of b, as runes.
func decodeAll(b []byte) []rune {
	var rs []rune
	for i := 0; i < len(b); {
		r, n := decodeUTF8(b, i)
		rs = append(rs, r)
		i += n
	}
	return rs
}

// TestDatesAsV8: every string parseDate reads means what new Date(s)
// means to Node, in two time zones (so that no local-time form is read);
// the rest are left to the caller, which keeps the entry.
func TestDatesAsV8(t *testing.T) {
	fixed := []string{"2026-01-01", "2026-01", "2026", "2026-02-30", "2026-02-31T00:00:00Z", "2026-04-31", "2026-02-29",
		"2024-02-30", "2026-01-32", "2026-13-01", "2026-00-01", "2026-01-01T00:00", "2026-01-01T00:00Z", "2026-01-01t00:00:00z",
		"2026-01-01T00:00:00.1Z", "2026-01-01T00:00:00.1239Z", "2026-01-01T00:00:00.Z", "2026-01-01T24:00:00Z",
		"2026-01-01T24:00:00.001Z", "2026-01-01T24:00Z", "2026-01-01T23:59:60Z", "2026-01-01T00:00:00+24:00",
		"2026-01-01T00:00:00+23:59", "2026-01-01T00:00:00-00:00", "2026-01-01T00:00:00+0100", "2026-01-01 00:00:00Z",
		" 2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z ", "+002026-01-01T00:00:00Z", "-000001-01-01T00:00:00Z",
		"0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z", "1969-12-31T23:59:59.999Z", "2026-1-1", "20260101",
		"2026-06-01T00:00:00.000Z", "Mon, 01 Jun 2026 00:00:00 GMT", "never", "", "2026-01-01T00:00:00Zjunk"}
	rng := rand.New(rand.NewPCG(5, 6))
	alphabet := "0123456789-:T.Z+tz "
	for range 2000 {
		b := []byte(fixed[rng.IntN(len(fixed))])
		for range rng.IntN(3) {
			if len(b) > 0 {
				b[rng.IntN(len(b))] = alphabet[rng.IntN(len(alphabet))]
			}
		}
		fixed = append(fixed, string(b))
	}
	cases := make([][]byte, len(fixed))
	for i, s := range fixed {
		cases[i] = []byte(s)
	}
	read := 0
	for _, tz := range []string{"TZ=UTC", "TZ=Asia/Kolkata"} {
		var want []*float64
		nodeEval(t, []string{tz}, `console.log(JSON.stringify(input.map((s) => { const t = new Date(s).getTime(); return Number.isNaN(t) ? null : t })))`, cases, &want)
		for i, s := range fixed {
			ms, ok := parseDate(s)
			if !ok {
				continue
			}
			read++
			if want[i] == nil || *want[i] != float64(ms) {
				t.Errorf("%s %q: parseDate %d, new Date %v", tz, s, ms, fmtMs(want[i]))
			}
		}
	}
	if read < 200 {
		t.Errorf("only %d dates read: the test exercises too little", read)
	}
}

func fmtMs(p *float64) string {
	if p == nil {
		return "Invalid Date"
	}
	return strconv.FormatFloat(*p, 'f', -1, 64)
}

// TestTruthinessAsJavaScript: a JSON value is truthy exactly when
// JavaScript's !! says so (numbers beyond and below a double included).
func TestTruthinessAsJavaScript(t *testing.T) {
	lits := []string{"0", "-0", "0.0", "0e5", "1e-400", "-1e-400", "4.9e-324", "2.4e-324", "1e400", "-1e400", "1", `""`, `"0"`,
		`"\u0000"`, "true", "false", "null", "[]", "{}", "[0]", "0.000000000000000000000000001"}
	cases := make([][]byte, len(lits))
	for i, l := range lits {
		cases[i] = []byte(l)
	}
	var want []bool
	nodeEval(t, nil, `console.log(JSON.stringify(input.map((s) => !!JSON.parse(s))))`, cases, &want)
	for i, l := range lits {
		r := reader{b: []byte(l)}
		v, ok := r.value(nil, nil)
		if !ok || v.truthy() != want[i] {
			t.Errorf("%s: truthy %v (read %v), JavaScript %v", l, v.truthy(), ok, want[i])
		}
	}
}
