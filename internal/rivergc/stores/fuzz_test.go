package stores

import (
	"encoding/json"
	"slices"
	"testing"
)

// FuzzReader holds the stores' reader to JSON's grammar (encoding/json's
// json.Valid, which accepts invalid UTF-8 inside strings as JSON.parse's
// decoded text does, with the same nesting limit) and checks what the
// stores make of any bytes: entries inside the text and in order, and a
// splice that re-reads as exactly the kept entries.
func FuzzReader(f *testing.F) {
	for _, s := range []string{
		`{"version":"1","entries":[]}`,
		`{"version":"1","entries":[{"id":"a","type":"review","metadata":{"createdAt":"2020-01-01T00:00:00Z"}},{"id":"b","type":"pattern"}]}`,
		"{\"entries\":[{\"id\":\"x\\ud800\",\"Type\":\"review\",\"type\":\"adr\",\"context\":{\"active\":1e-400},\"context\":[]}]}\n",
		"\xEF\xBB\xBF{\"entries\":[]}",
		"{\"timestamp\":\"2020-01-01T00:00:00Z\"}\n\xEF\xBB\xBF\n{\"timestamp\":\"2020-01-02\"}\r\n\xC2\x85\n",
		`[1,-0.5e+3,"\u00e9",true,false,null,{"a":{"b":[]}}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := reader{b: data}
		r.space()
		_, ok := r.value(nil, nil)
		r.space()
		if ok = ok && r.i == len(data); ok != json.Valid(data) {
			t.Fatalf("reader accepts %v, json.Valid %v: %q", ok, !ok, data)
		}
		if st, err := ParseMemory(store, data, now); err == nil {
			checkSplice(t, st, data, func(b []byte) (Store, error) { return ParseMemory(store, b, now) })
		}
		st := ParseLedger(ledgerStore, data)
		checkSplice(t, st, data, func(b []byte) (Store, error) { return ParseLedger(ledgerStore, b), nil })
	})
}

const ledgerStore = "artifacts/evals/results.jsonl"

// checkSplice: entries lie in the text in order; removing every other
// entry leaves a text whose entries are the kept ones (by their bytes).
func checkSplice(t *testing.T, st Store, data []byte, parse func([]byte) (Store, error)) {
	t.Helper()
	at := 0
	removed := map[string]bool{}
	var kept []string
	for i, e := range st.Entries {
		if e.Start < at || e.End < e.Start || e.End > len(data) {
			t.Fatalf("entry %d at [%d, %d) after %d in %d bytes", i, e.Start, e.End, at, len(data))
		}
		at = e.End
		if i%2 == 0 {
			removed[e.Name] = true
		}
	}
	for _, e := range st.Entries {
		if !removed[e.Name] {
			kept = append(kept, string(data[e.Start:e.End]))
		}
	}
	out := st.Splice(data, marks(st, removed))
	if n := st.SplicedLen(data, marks(st, removed)); n != len(out) {
		t.Fatalf("SplicedLen %d, the splice is %d bytes", n, len(out)) // a dry-run's reclaimable space (decision 241)
	}
	again, err := parse(out)
	if err != nil {
		t.Fatalf("the splice of %q does not read: %v\n%q", data, err, out)
	}
	var got []string
	for _, e := range again.Entries {
		got = append(got, string(out[e.Start:e.End]))
	}
	if !slices.Equal(got, kept) {
		t.Fatalf("after the splice %q, want %q (from %q)", got, kept, data)
	}
}
