package render_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/plangate-gc/plangate-gc/internal/upstream"
	"github.com/plangate-gc/plangate-gc/render"
)

// randomRune draws from what makes quoting hard: ':' and digits, C0 and
// C1 controls, separators, bidi and invisible characters, noncharacters,
// any character of the BMP, and any beyond it (unassigned and private
// planes included: U+F0000 was written \u0000).
func randomRune(rng *rand.Rand) rune {
	for {
		var r rune
		switch rng.IntN(10) {
		case 0:
			r = rune(":0123456789 \"a"[rng.IntN(14)])
		case 1:
			r = rune(1 + rng.IntN(0x1f))
		case 2:
			r = rune(0x7f + rng.IntN(0x22)) // DEL, C1, NBSP
		case 3:
			r = []rune{'\u2028', '\u2029', '\ufeff', '\u202e', '\u2066', '\u200b', '\u061c', '\ufffe', '\uffff', '\u3000'}[rng.IntN(10)]
		case 4, 5:
			r = rune(0x80 + rng.IntN(0xffff-0x80))
		case 6:
			r = []rune{0xf0000, 0xffffd, 0x10fffd, 0x10ffff, 0xe0001, 0xe007f, 0x1f600, 0x1d173, 0x2fffe}[rng.IntN(9)]
		default:
			r = rune(0x10000 + rng.IntN(0x100000))
		}
		if r != '/' && r != '\\' && (r < 0xd800 || r > 0xdfff) {
			return r
		}
	}
}

// TestQuotedPathsAreFaithful (property, SPEC B6): random paths of every
// kind of character, written by plangate-gc's text output, read back
// through upstream River Review's own parseLineComments and, when quoted,
// JSON.parse in Node, are the paths themselves, code unit for code unit.
func TestQuotedPathsAreFaithful(t *testing.T) {
	dir := upstream.Dir(t)
	rng := rand.New(rand.NewPCG(135, 3))
	seen := map[string]bool{}
	var paths []string
	for len(paths) < 2000 {
		var b strings.Builder
		b.WriteString(".river/memory/")
		for range 1 + rng.IntN(6) {
			b.WriteRune(randomRune(rng))
		}
		if p := b.String(); !seen[p] {
			seen[p] = true
			paths = append(paths, p)
		}
	}
	text := textOf(t, inventory(t, paths, ".river/memory/never-listed"))
	script := `import { parseLineComments } from './src/lib/review-engine.mjs';
let s = ''; process.stdin.setEncoding('utf8');
process.stdin.on('data', d => { s += d; });
process.stdin.on('end', () => {
  const out = (parseLineComments(s) || []).filter(c => c.line === 0).map(c => {
    let f = c.file;
    if (f.startsWith('"')) { try { f = JSON.parse(f); } catch (e) { f = 'NOT JSON: ' + e.message; } }
    return Array.from({ length: f.length }, (_, i) => f.charCodeAt(i).toString(16)).join(' ');
  });
  process.stdout.write(JSON.stringify(out));
});`
	var read []string
	if err := json.Unmarshal(upstream.Node(t, dir, []byte(text), "--input-type=module", "-e", script), &read); err != nil {
		t.Fatal(err)
	}
	want := codeUnits(paths)
	slices.Sort(read)
	slices.Sort(want)
	if len(read) != len(want) {
		t.Fatalf("upstream read %d REMOVE lines, %d paths were removed", len(read), len(want))
	}
	for i := range want {
		if read[i] != want[i] {
			t.Errorf("upstream reads the code units %s where the path is %s", read[i], want[i])
		}
	}
}

// codeUnits spells each string's UTF-16 code units in hex, as the Node
// scripts of these tests do.
func codeUnits(ss []string) []string {
	var out []string
	for _, s := range ss {
		var units []string
		for _, u := range utf16.Encode([]rune(s)) {
			units = append(units, fmt.Sprintf("%x", u))
		}
		out = append(out, strings.Join(units, " "))
	}
	return out
}

// TestJSONStringsAreFaithful (property, SPEC B6): the JSON records'
// string encoder (render.AppendString, with internal/jsonesc for ASCII)
// writes every valid string, characters beyond the BMP and controls
// included, so that JSON.parse in Node reads it back code unit for code
// unit (the quoted review-line path's bug, looked for here too).
func TestJSONStringsAreFaithful(t *testing.T) {
	dir := upstream.Dir(t)
	rng := rand.New(rand.NewPCG(135, 4))
	var ss []string
	b := []byte("[")
	for i := range 3000 {
		var sb strings.Builder
		for range rng.IntN(8) {
			r := randomRune(rng)
			if rng.IntN(8) == 0 {
				r = []rune{'/', '\\', 0}[rng.IntN(3)]
			}
			sb.WriteRune(r)
		}
		ss = append(ss, sb.String())
		if i > 0 {
			b = append(b, ',')
		}
		b = render.AppendString(b, sb.String())
	}
	b = append(b, ']')
	script := `let s = ''; process.stdin.setEncoding('utf8');
process.stdin.on('data', d => { s += d; });
process.stdin.on('end', () => {
  const out = JSON.parse(s).map(f => Array.from({ length: f.length }, (_, i) => f.charCodeAt(i).toString(16)).join(' '));
  process.stdout.write(JSON.stringify(out));
});`
	var read []string
	if err := json.Unmarshal(upstream.Node(t, dir, b, "-e", script), &read); err != nil {
		t.Fatal(err)
	}
	if want := codeUnits(ss); !slices.Equal(read, want) {
		for i := range min(len(read), len(want)) {
			if read[i] != want[i] {
				t.Fatalf("%q: JSON.parse reads %s, want %s", ss[i], read[i], want[i])
			}
		}
		t.Fatalf("JSON.parse read %d strings of %d", len(read), len(want))
	}
}
