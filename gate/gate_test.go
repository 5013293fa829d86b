package gate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

const validDoc = `{"inventory":{"scope":"memory","paths":[{"path":".river/memory/a.json","sizeBytes":1,"mtimeEpoch":1}]},"retention":{"days":90,"maxEntries":1000,"maxSizeMb":500},"now":1764374400}`

// outcomes reads every document of a stream: "ok" or the first problem's
// code and pointer.
func outcomes(t *testing.T, stream string) []string {
	t.Helper()
	r := NewReader(strings.NewReader(stream))
	var got []string
	for {
		_, err := r.Next()
		if errors.Is(err, io.EOF) {
			return got
		}
		var ge *Error
		switch {
		case errors.As(err, &ge):
			got = append(got, fmt.Sprintf("%s %s", ge.Problems[0].Code, ge.Problems[0].Pointer))
		case err != nil:
			t.Fatalf("I/O error: %v", err)
		default:
			got = append(got, "ok")
		}
	}
}

func TestGate(t *testing.T) {
	with := func(old, new string) string { return strings.Replace(validDoc, old, new, 1) }
	for _, tc := range []struct {
		name, stream string
		want         []string
	}{
		{"valid", validDoc, []string{"ok"}},
		{"empty stdin", "", []string{"empty-input "}},
		{"whitespace stdin", " \n\t ", []string{"empty-input "}},
		{"json lines", validDoc + "\n" + validDoc + "\n", []string{"ok", "ok"}},
		{"concatenated without space", validDoc + validDoc, []string{"ok", "ok"}},
		{"syntax error ends stream", validDoc + `{"a":` + "\n" + validDoc, []string{"ok", "syntax "}},
		{"top-level array", `[]`, []string{"schema "}},
		{"exponent integers", with(`"sizeBytes":1`, `"sizeBytes":1e3`), []string{"ok"}},
		{"decimal-point integer", with(`"mtimeEpoch":1`, `"mtimeEpoch":1700000000.0`), []string{"ok"}},
		{"now in exponent form", with(`"now":1764374400`, `"now":1.7643744e9`), []string{"ok"}},
		{"fractional size", with(`"sizeBytes":1`, `"sizeBytes":1.5`), []string{"schema /inventory/paths/0/sizeBytes"}},
		{"size above 2^53-1", with(`"sizeBytes":1`, `"sizeBytes":9007199254740992`), []string{"schema /inventory/paths/0/sizeBytes"}},
		{"size 2^53-1", with(`"sizeBytes":1`, `"sizeBytes":9007199254740991`), []string{"ok"}},
		{"mtime null", with(`"mtimeEpoch":1`, `"mtimeEpoch":null`), []string{"ok"}},
		{"mtime negative max", with(`"mtimeEpoch":1`, `"mtimeEpoch":-9007199254740991`), []string{"ok"}},
		{"mtime huge exponent", with(`"mtimeEpoch":1`, `"mtimeEpoch":1e999999999`), []string{"schema /inventory/paths/0/mtimeEpoch"}},
		{"retention huge exponent", with(`"days":90`, `"days":1e999999999`), []string{"ok"}},
		{"retention string", with(`"days":90`, `"days":"90"`), []string{"schema /retention/days"}},
		{"negative now", with(`"now":1764374400`, `"now":-1`), []string{"schema /now"}},
		{"missing paths", with(`"paths":[{"path":".river/memory/a.json","sizeBytes":1,"mtimeEpoch":1}]`, `"x":1`), []string{"schema /inventory"}},
		{"empty paths", with(`{"path":".river/memory/a.json","sizeBytes":1,"mtimeEpoch":1}`, ``), []string{"schema /inventory/paths"}},
		{"paths not array", with(`[{"path":".river/memory/a.json","sizeBytes":1,"mtimeEpoch":1}]`, `{}`), []string{"schema /inventory/paths"}},
		{"bad type", with(`"mtimeEpoch":1}`, `"mtimeEpoch":1,"type":"link"}`), []string{"schema /inventory/paths/0/type"}},
		{"unknown keys", with(`"now"`, `"x-extra":{"y":[1,2]},"now"`), []string{"ok"}},
		{"duplicate key", with(`"sizeBytes":1`, `"sizeBytes":1,"sizeBytes":2`), []string{"duplicate-key /inventory/paths/0/sizeBytes"}},
		{"invalid utf8", with(`a.json`, "a\xff.json"), []string{"invalid-utf8 /inventory/paths/0/path"}},
		{"lone surrogate escape passes (the path is non-canonical)", with(`a.json`, `a\ud800.json`), []string{"ok"}},
		{"surrogate pair escape", with(`a.json`, `a\ud83d\ude00.json`), []string{"ok"}},
		{"depth 64 ok", with(`"now"`, `"d":`+strings.Repeat("[", 63)+strings.Repeat("]", 63)+`,"now"`), []string{"ok"}},
		{"depth 65", with(`"now"`, `"d":`+strings.Repeat("[", 64)+strings.Repeat("]", 64)+`,"now"`), []string{"too-deep /d" + strings.Repeat("/0", 63)}},
		{"deep stream continues", with(`"now"`, `"d":`+strings.Repeat(`[{"k":`, 5000)+`1`+strings.Repeat(`}]`, 5000)+`,"now"`) + validDoc, []string{"too-deep /d" + strings.Repeat("/0/k", 31) + "/0", "ok"}},
		{"malformed exclude", with(`"now"`, `"excludes":["ok/**","[abc"],"now"`), []string{"malformed-exclude /excludes/1"}},
		{"control char in string", with(`a.json`, "a\x01.json"), []string{"syntax "}},
		{"leading zero", with(`"sizeBytes":1`, `"sizeBytes":01`), []string{"syntax "}},
		{"trailing comma", with(`"now":1764374400`, `"now":1764374400,`), []string{"syntax "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := outcomes(t, tc.stream)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestProblemsAreSortedAndStable: many errors come back in one fixed order
// whatever order the validator produced them in.
func TestProblemsAreSortedAndStable(t *testing.T) {
	doc := `{"inventory":{"scope":"nope","paths":[` +
		`{"path":"","sizeBytes":-1,"mtimeEpoch":"x","type":1},` + strings.Repeat(`{"sizeBytes":1.5},`, 11) + `{}]},` +
		`"retention":{"days":"a","maxEntries":null},"now":-5,"hardGuards":[1,2],"excludes":"x"}`
	first := ""
	for i := range 20 {
		_, err := NewReader(strings.NewReader(doc)).Next()
		text := err.Error()
		if i == 0 {
			first = text
			continue
		}
		if text != first {
			t.Fatalf("run %d differs:\n%s\n---\n%s", i, text, first)
		}
	}
	lines := strings.Split(first, "\n")
	if !strings.HasPrefix(lines[0], "/excludes") && !strings.HasPrefix(lines[0], "/hardGuards") {
		t.Errorf("first problem %q: pointers should be sorted", lines[0])
	}
	if !strings.Contains(first, "/inventory/paths/2:") || strings.Index(first, "/inventory/paths/2:") > strings.Index(first, "/inventory/paths/10:") {
		t.Errorf("array indexes must sort numerically:\n%s", first)
	}
}

// TestFastPathAgreesWithSchema holds entryOf (the fast path) to the entry
// subschema on random near-valid items: it may decline what the schema
// accepts only at a cost in speed, but must never accept what it rejects.
func TestFastPathAgreesWithSchema(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	values := []any{nil, true, "x", "", json.Number("0"), json.Number("-0"), json.Number("1e3"), json.Number("1.5"),
		json.Number("9007199254740991"), json.Number("9007199254740992"), json.Number("-9007199254740991"),
		json.Number("-9007199254740992"), json.Number("1.0"), json.Number("1E400"), json.Number("-1"), json.Number("0.1e1"),
		"file", "dir", []any{}, map[string]any{}}
	keys := []string{"path", "sizeBytes", "mtimeEpoch", "type", "other"}
	disagree := 0
	for i := range 20000 {
		item := map[string]any{}
		for _, k := range keys {
			if rng.IntN(5) > 0 {
				item[k] = values[rng.IntN(len(values))]
			}
		}
		if rng.IntN(3) == 0 {
			item["path"], item["sizeBytes"], item["mtimeEpoch"] = "p", json.Number("7"), json.Number("8")
		}
		_, fast := entryOf(item)
		safe, _ := safeNumbers(item)
		schema := schemaOnce().entry.Validate(safe) == nil
		if fast != schema {
			disagree++
			if disagree < 5 {
				t.Errorf("item %d %v: fast path %v, schema %v", i, item, fast, schema)
			}
		}
	}
}

func BenchmarkGate(b *testing.B) { benchGate(b, `.river/memory/s/%06d.json`) }

// benchGate reads a document of 10,000 entries whose paths are pathFormat
// (a format of the entry's number, as it stands inside the JSON string).
func benchGate(b *testing.B, pathFormat string) {
	var sb strings.Builder
	sb.WriteString(`{"inventory":{"scope":"memory","paths":[`)
	for i := range 10000 {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"path":"`+pathFormat+`","sizeBytes":%d,"mtimeEpoch":%d}`, i, i*10, 1700000000+i)
	}
	sb.WriteString(`]},"retention":{"days":90,"maxEntries":1000,"maxSizeMb":500},"now":1764374400}`)
	doc := sb.String()
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewReader(strings.NewReader(doc)).Next(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestReasonsAreCappedCheaply: past the cap, bad entries are only counted,
// and the reasons shown are the first ones.
func TestReasonsAreCappedCheaply(t *testing.T) {
	doc := strings.Replace(validDoc, `{"path":".river/memory/a.json","sizeBytes":1,"mtimeEpoch":1}`,
		strings.TrimSuffix(strings.Repeat("1,", 250), ","), 1)
	_, err := NewReader(strings.NewReader(doc)).Next()
	var ge *Error
	if !errors.As(err, &ge) {
		t.Fatalf("want a gate failure, got %v", err)
	}
	if first := ge.Problems[0].Pointer; first != "/inventory/paths/0" {
		t.Errorf("first reason at %s", first)
	}
	last := ge.Problems[len(ge.Problems)-1]
	if last.Code != CodeProblemsCapped || !strings.Contains(last.Message, "150 further invalid entries") {
		t.Errorf("last reason %+v", last)
	}
}

// TestMessagesEchoLiterals: a number rewritten for the validator is quoted
// as the input wrote it (SPEC A3).
func TestMessagesEchoLiterals(t *testing.T) {
	doc := strings.Replace(validDoc, `"sizeBytes":1`, `"sizeBytes":1e400`, 1)
	_, err := NewReader(strings.NewReader(doc)).Next()
	if err == nil || !strings.Contains(err.Error(), "found 1e400") {
		t.Errorf("got %v", err)
	}
}

// BenchmarkGateEscaped is BenchmarkGate with paths that escape a quote,
// a non-ASCII letter and a surrogate pair: elements the fast path
// declines, read by the general path's string scanner.
func BenchmarkGateEscaped(b *testing.B) {
	benchGate(b, `.river/memory/caf\u00e9 \"q\" \ud83d\ude00/%06d.json`)
}
