package gate

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/plangate-gc/plangate-gc/internal/jsonnum"
	"github.com/plangate-gc/plangate-gc/skill"
)

// weirdPaths are path strings the encoder must carry exactly: non-ASCII
// (NFC and NFD), quotes, every control character, backslashes, JSON
// look-alikes, and the encoded lone surrogates the parser itself produces.
var weirdPaths = []string{
	".river/memory/a.json", ".river/memory/日本語/ファイル.json", ".river/memory/cafe\u0301.json", ".river/memory/café.json",
	".river/memory/\U0001F600", `.river/memory/"quoted"`, `.river/memory/back\slash`, `.river/memory/\u0041`, `\\`, `"`,
	".river/memory/\x00nul", "\x01\x02\x1f\x7f", "tab\there\nnew\rline", "\u2028\u2029", "<>&", "/abs", "a//b", "./x", "dir/",
	"lone \xed\xa0\x80 high", "lone \xed\xbf\xbf low", "\xed\xb0\x80\xed\xa0\x80", "x",
}

func randomInput(rng *rand.Rand) skill.Input {
	lits := []string{"90", "1e1", "0.5", "-1", "1e999999999", "1.0", "0", "-0.0e-5"}
	lit := func() jsonnum.Number { return jsonnum.MustParse(lits[rng.IntN(len(lits))]) }
	in := skill.Input{
		Scope:     skill.Scopes()[rng.IntN(4)],
		Retention: skill.Retention{Days: lit(), MaxEntries: lit(), MaxSizeMb: lit()},
		Now:       rng.Int64N(maxSafe + 1),
	}
	for range 1 + rng.IntN(40) {
		e := skill.Entry{Path: weirdPaths[rng.IntN(len(weirdPaths))], SizeBytes: uint64(rng.Int64N(maxSafe + 1)),
			Dir: rng.IntN(4) == 0}
		if rng.IntN(5) > 0 {
			e.Mtime, e.MtimeKnown = rng.Int64N(2*maxSafe+1)-maxSafe, true
		}
		in.Paths = append(in.Paths, e)
	}
	rng.Shuffle(len(in.Paths), func(i, j int) { in.Paths[i], in.Paths[j] = in.Paths[j], in.Paths[i] })
	in.HardGuards = []string{}
	for range rng.IntN(4) {
		in.HardGuards = append(in.HardGuards, weirdPaths[rng.IntN(len(weirdPaths))])
	}
	in.Excludes = []string{}
	for range rng.IntN(4) {
		in.Excludes = append(in.Excludes, []string{"*.keep", `a\ b`, "!x/**", "/anchored", "[!a-z]?"}[rng.IntN(5)])
	}
	return in
}

// TestAppendInputRoundTrips encodes random inputs with weird paths and
// reads them back through the gate: the same skill.Input must come out.
func TestAppendInputRoundTrips(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var stream []byte
	var want []skill.Input
	for range 200 {
		in := randomInput(rng)
		want = append(want, in)
		stream = AppendInput(stream, in)
	}
	if bytes.Count(stream, []byte("\n")) != len(want) {
		t.Fatal("each document must be exactly one line")
	}
	r := NewReader(bytes.NewReader(stream))
	for i, w := range want {
		got, err := r.Next()
		if err != nil {
			t.Fatalf("document %d: %v\n%s", i, err, AppendInput(nil, w))
		}
		if !reflect.DeepEqual(got, w) {
			t.Fatalf("document %d:\n got %#v\nwant %#v", i, got, w)
		}
	}
}

// TestAppendInputKeepsInvalidUTF8NonCanonical: a path that is not valid
// UTF-8 cannot be carried byte for byte in JSON; it must read back as a
// path that is still not valid UTF-8, so it is judged the same (out of
// scope), never as a different canonical path.
func TestAppendInputKeepsInvalidUTF8NonCanonical(t *testing.T) {
	for _, p := range []string{"\xff", "a\x80b", ".river/memory/\xed\xa0\x80\xff", ".river/memory/\xed\xa0\x80\xed\xb0\x80",
		"\xed\xa0\x80\xe3\x81", "\xc3", "\xf4\x90\x80\x80"} {
		in := skill.Input{Scope: skill.ScopeMemory, Paths: []skill.Entry{{Path: p, MtimeKnown: true, Mtime: 1}},
			Retention: skill.Retention{Days: jsonnum.MustParse("1"), MaxEntries: jsonnum.MustParse("1"), MaxSizeMb: jsonnum.MustParse("1")}}
		line := AppendInput(nil, in)
		got, err := NewReader(bytes.NewReader(line)).Next()
		if err != nil {
			t.Fatalf("%q: %v\n%s", p, err, line)
		}
		if q := got.Paths[0].Path; utf8.ValidString(q) || skill.Canonical(q) {
			t.Errorf("%q read back as %q, which is valid UTF-8", p, q)
		}
		if !utf8.Valid(line) || strings.ContainsRune(string(line), utf8.RuneError) {
			t.Errorf("%q: the line must be valid UTF-8 without U+FFFD: %s", p, line)
		}
	}
}
