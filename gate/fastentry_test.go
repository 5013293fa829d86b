package gate

import (
	"bufio"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/skill"
)

// general runs one element through the general path: the strict parser,
// then entryOf, then the schema; ok is whether all of them accept.
func general(text string) (skill.Entry, bool) {
	p := &parser{r: bufio.NewReader(strings.NewReader(text)), path: append(keySegs("inventory", "paths"), seg{index: 0})}
	v, err := p.value(3)
	if err != nil || len(p.probs) > 0 {
		return skill.Entry{}, false
	}
	if _, _, err := p.skipSpace(); err != nil {
		return skill.Entry{}, false
	}
	safe, _ := safeNumbers(v)
	if schemaOnce().entry.Validate(safe) != nil {
		return skill.Entry{}, false
	}
	e, ok := entryOf(v)
	return e, ok
}

// TestFastEntryAgreesWithGeneralPath holds the byte-level fast path to the
// general path and the schema on random near-plain elements: whatever it
// accepts they accept, with the same Entry; cut anywhere, it declines or
// reads the same element.
func TestFastEntryAgreesWithGeneralPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	keys := []string{`"path"`, `"sizeBytes"`, `"mtimeEpoch"`, `"type"`, `"other"`, `"pa\u0074h"`, `"Path"`,
		`"sha"`, `"o\u0074her"`, `"日"`, `""`, "\"\xff\"", `"path "`}
	values := []string{`"x"`, `""`, `"a\"b"`, `"é"`, "\"\xff\"", "\"a\x01\"", `0`, `-0`, `01`, `1e3`, `1.0`, `7`, `-7`,
		`9007199254740991`, `9007199254740992`, `-9007199254740991`, `-9007199254740992`, `12345678901234567`,
		`null`, `nul`, `true`, `"file"`, `"dir"`, `"File"`, `[]`, `{}`, `-`, `1-`, `"\t"`, `"日本"`,
		`false`, `truex`, `nullnull`, `1.`, `.5`, `1e`, `1e+`, `-1.5E-7`, `0.0e0`, `00`, `-01`, `1.2.3`, `+1`, `1e3e4`, `[1]`, `tru`}
	ws := []string{"", "", " ", "\n\t", "\r"}
	accepted := 0
	for i := range 30000 {
		var b strings.Builder
		b.WriteString(ws[rng.IntN(len(ws))] + "{")
		fields := rng.IntN(6)
		if rng.IntN(2) == 0 { // a plain entry, often spoiled below
			if rng.IntN(2) == 0 {
				fields = 0
			}
			b.WriteString(`"path":"p/` + string(rune('a'+rng.IntN(26))) + `","sizeBytes":` + values[6+rng.IntN(12)] + `,"mtimeEpoch":` + values[6+rng.IntN(14)])
			if fields > 0 {
				b.WriteByte(',')
			}
		}
		for f := range fields {
			if f > 0 {
				b.WriteString(ws[rng.IntN(len(ws))] + ",")
			}
			b.WriteString(ws[rng.IntN(len(ws))] + keys[rng.IntN(len(keys))] + ws[rng.IntN(len(ws))] + ":" +
				ws[rng.IntN(len(ws))] + values[rng.IntN(len(values))])
		}
		b.WriteString(ws[rng.IntN(len(ws))] + "}")
		text := b.String()
		fast, path, n, ok := scanEntry([]byte(text + ",")) // a separator follows in a real array
		if !ok {
			continue
		}
		fast.Path = string(path)
		accepted++
		if n != len(text) {
			t.Fatalf("%q: fast path read %d bytes of %d", text, n, len(text))
		}
		if slow, sok := general(text); !sok || slow != fast {
			t.Fatalf("element %d %q: fast path %+v, general path %+v (accepts: %v)", i, text, fast, slow, sok)
		}
		for cut := range len(text) {
			if e, p, m, ok := scanEntry([]byte(text[:cut])); ok && (m > cut || string(p) != fast.Path || e != (skill.Entry{SizeBytes: fast.SizeBytes, Mtime: fast.Mtime, MtimeKnown: fast.MtimeKnown, Dir: fast.Dir})) {
				t.Fatalf("%q cut at %d: read %+v over %d bytes", text, cut, e, m)
			}
		}
	}
	if accepted < 1000 {
		t.Fatalf("only %d elements took the fast path: the test is not exercising it", accepted)
	}
}
