package gate

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/jsonnum"
)

// verdicts reads every document of data, with the discard mode or with
// every value built (the gate before it), and returns each outcome: the
// input or the verdict's text.
func verdicts(data []byte, buildAll bool) []any {
	r := NewReader(bytes.NewReader(data))
	r.buildAll = buildAll
	var out []any
	for {
		in, err := r.Next()
		switch {
		case errors.Is(err, io.EOF):
			return out
		case err != nil:
			out = append(out, err.Error())
		default:
			out = append(out, in)
		}
	}
}

// FuzzDiscardAgreesWithBuild holds the discard mode (values the schema does
// not look at are checked, not built) to the gate that built every value:
// the same verdicts, reasons and inputs, document by document. Seeded with
// the fixture inputs and hostile documents (hostileDoc).
func FuzzDiscardAgreesWithBuild(f *testing.F) {
	inputs, _ := filepath.Glob(filepath.Join("..", "fixtures", "*", "input.json"))
	for _, p := range inputs {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 400 {
		f.Add([]byte(hostileDoc(rng)))
	}
	f.Add([]byte(ioDoc + validDoc))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, want := verdicts(data, false), verdicts(data, true)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("discard mode disagrees on %q:\n got %#v\nwant %#v", data, got, want)
		}
	})
}

// hostileDoc is a valid document with random damage in random places:
// unknown keys holding arbitrary values, containers where scalars belong,
// duplicate keys, bad UTF-8, bad numbers, deep nesting.
func hostileDoc(rng *rand.Rand) string {
	var b strings.Builder
	b.WriteString(`{"inventory":{"scope":` + pick(rng, `"memory"`, `["memory"]`, `{"a":1}`, `"x"`) +
		`,"paths":` + pick(rng, `[{"path":".river/memory/a.json","sizeBytes":1,"mtimeEpoch":1}]`, `{"0":1}`, `[]`,
		`[{"path":".river/memory/a.json","sizeBytes":1,"mtimeEpoch":1,`+hostileMember(rng, 3)+`}]`,
		`[[{"path":"a"}],{},1,"x",{"path":".river/memory/b","sizeBytes":2,"mtimeEpoch":null}]`,
		`[{"path":{"a":1},"sizeBytes":[1],"mtimeEpoch":{},"type":["dir"]}]`,
		`[{"path":".river/memory/c","sizeBytes":1e400,"mtimeEpoch":-1e999999999}]`) +
		`,` + hostileMember(rng, 3) + `},"retention":{"days":` + pick(rng, `90`, `[90]`, `1e999999999`, `{}`) +
		`,"maxEntries":1000,"maxSizeMb":500},"now":` + pick(rng, `1764374400`, `[1]`, `{"now":1}`, `-1`))
	for range rng.IntN(4) {
		b.WriteString("," + hostileMember(rng, 4))
	}
	if rng.IntN(3) == 0 {
		b.WriteString(`,"excludes":` + pick(rng, `["[abc","ok/**"]`, `[["x"],{"y":"[z"}]`, `"x"`, `{"0":"[a"}`))
	}
	if rng.IntN(3) == 0 {
		b.WriteString(`,"hardGuards":` + pick(rng, `["a",["b"],{"c":1}]`, `{"a":"b"}`, `[1e400,"\ud800"]`))
	}
	b.WriteString("}")
	s := b.String()
	if rng.IntN(8) == 0 { // cut anywhere: a syntax error, the same offset
		s = s[:rng.IntN(len(s))]
	}
	return s
}

// hostileMember is one unknown (or known, repeated) key with a value.
func hostileMember(rng *rand.Rand, depth int) string {
	key := pick(rng, `"x"`, `"y"`, `"x"`, `"now"`, "\"k\xff\"", `"a\u0000"`, `"paths"`)
	return key + ":" + hostileValue(rng, depth)
}

func hostileValue(rng *rand.Rand, depth int) string {
	if depth <= 0 || rng.IntN(3) == 0 {
		return pick(rng, `1`, `-0.5e3`, `01`, `1.`, `-`, `1e999999999`, strings.Repeat("9", 100)+"x",
			strings.Repeat("1", 80)+".e", `"s"`, "\"bad\xc3(\"", `"\ud83d\ude00"`, `"\q"`, `true`, `nul`, `null`,
			strings.Repeat("[", 70)+strings.Repeat("]", 70), `"`+strings.Repeat("é", 30)+`"`)
	}
	var b strings.Builder
	if rng.IntN(2) == 0 {
		b.WriteByte('[')
		for i := range rng.IntN(4) {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(hostileValue(rng, depth-1))
		}
		b.WriteByte(']')
		return b.String()
	}
	b.WriteByte('{')
	for i := range rng.IntN(5) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(hostileMember(rng, depth-1))
	}
	b.WriteByte('}')
	return b.String()
}

func pick(rng *rand.Rand, options ...string) string { return options[rng.IntN(len(options))] }

// TestNumberAutomatonIsTheGrammar: the streaming check of discard mode
// accepts exactly what jsonnum.Parse (the built path) accepts.
func TestNumberAutomatonIsTheGrammar(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := "0123456789-+.eE"
	for range 200000 {
		var b []byte
		for range 1 + rng.IntN(8) {
			b = append(b, alphabet[rng.IntN(len(alphabet))])
		}
		state := numStart
		var echo numberEcho
		for _, c := range b {
			state = numberStep(state, c)
			echo.add(c)
		}
		_, want := jsonnum.Parse(string(b))
		if got := numberFinal(state); got != want {
			t.Fatalf("%q: automaton %v, jsonnum.Parse %v", b, got, want)
		}
		if echo.String() != shorten(string(b)) {
			t.Fatalf("%q: echo %q", b, echo.String())
		}
	}
	long := strings.Repeat("1", 50) + strings.Repeat("2", 50) + "x"
	var echo numberEcho
	for i := range len(long) {
		echo.add(long[i])
	}
	if echo.String() != shorten(long) {
		t.Fatalf("echo %q, shorten %q", echo.String(), shorten(long))
	}
}

// TestUnknownValuesAreNotBuilt: a document whose unknown keys hold a large
// value is gated in memory that does not grow with that value, and the
// I-JSON rules still reach inside it.
func TestUnknownValuesAreNotBuilt(t *testing.T) {
	var big strings.Builder
	big.WriteString(`[`)
	for i := range 50000 {
		if i > 0 {
			big.WriteByte(',')
		}
		big.WriteString(`{"id":` + strconv.Itoa(i) + `,"name":"entry","tags":["a","b"],"v":1.5}`)
	}
	big.WriteString(`]`)
	doc := strings.Replace(validDoc, `"now"`, `"x-extra":`+big.String()+`,"now"`, 1)
	schemaOnce()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := NewReader(strings.NewReader(doc)).Next(); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	// Building it allocated several times its text; reading it allocates
	// the index segments of the pointer and the key sets, a fraction.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(len(doc))/8 {
		t.Errorf("%d bytes allocated for a %d-byte document: the unknown value is being built", alloc, len(doc))
	}
	for _, tc := range []struct{ inside, want string }{
		{`{"a":1,"a":2}`, "duplicate-key /x-extra/49999/a"},
		{"\"\xff\"", "invalid-utf8 /x-extra/49999"},
		{strings.Repeat("[", 64) + strings.Repeat("]", 64), "too-deep /x-extra/49999" + strings.Repeat("/0", 62)},
	} {
		bad := strings.Replace(doc, `"v":1.5}]`, `"v":1.5},`+tc.inside+`]`, 1)
		bad = strings.Replace(bad, `{"id":49999,"name":"entry","tags":["a","b"],"v":1.5},`, ``, 1)
		if got := outcomes(t, bad); len(got) != 1 || got[0] != tc.want {
			t.Errorf("%.40s…: got %q, want %q", tc.inside, got, tc.want)
		}
	}
}

// TestDuplicateKeysAreLinearAndBounded: a million repeats of one key are
// one reason; a million distinct duplicated keys are the first hundred
// reasons and a count of the rest.
func TestDuplicateKeysAreLinearAndBounded(t *testing.T) {
	same := strings.Replace(validDoc, `"now"`, `"x":{`+strings.TrimSuffix(strings.Repeat(`"k":1,`, 1000000), ",")+`},"now"`, 1)
	var ge *Error
	if _, err := NewReader(strings.NewReader(same)).Next(); !errors.As(err, &ge) || len(ge.Problems) != 1 ||
		ge.Problems[0].Pointer != "/x/k" || ge.Problems[0].Code != CodeDuplicateKey {
		t.Fatalf("a million repeats of one key: %v", err)
	}
	var b strings.Builder
	for i := range 5000 {
		b.WriteString(`"k` + strconv.Itoa(i) + `":1,"k` + strconv.Itoa(i) + `":2,`)
	}
	distinct := strings.Replace(validDoc, `"now"`, `"x":{`+strings.TrimSuffix(b.String(), ",")+`},"now"`, 1)
	_, err := NewReader(strings.NewReader(distinct)).Next()
	if !errors.As(err, &ge) || len(ge.Problems) != maxProblems+1 {
		t.Fatalf("5000 duplicated keys: %v", err)
	}
	if last := ge.Problems[maxProblems]; last.Code != CodeProblemsCapped || last.Message != "4900 more problems not shown" {
		t.Errorf("the rest: %+v", last)
	}
	if first := ge.Problems[0].Pointer; first != "/x/k0" {
		t.Errorf("first reason at %s, want /x/k0", first)
	}
}

// TestKeySetIsASet holds keySet to a map over objects of every size, with
// repeats, empty keys and keys that are prefixes of others, across resets
// and through the switch to a map.
func TestKeySetIsASet(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var s keySet
	for round := range 300 {
		want := map[string]bool{}
		n := rng.IntN(3000)
		if round%3 == 0 {
			n = rng.IntN(20)
		}
		for i := range n {
			k := strconv.Itoa(rng.IntN(n + 1))
			if rng.IntN(5) == 0 {
				k = k[:rng.IntN(len(k)+1)]
			}
			key := s.intern([]byte(k))
			if key != k {
				t.Fatalf("intern(%q) = %q", k, key)
			}
			if dup := s.add(key); dup != want[k] {
				t.Fatalf("round %d key %d %q: dup %v, want %v", round, i, k, dup, want[k])
			}
			want[k] = true
			if round%7 == 1 && i == n/2 {
				s.toMap()
			}
		}
		s.reset()
	}
}
