package stores

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"
)

const store = ".river/memory/index.json"

var now = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC).Unix()

// index writes entries the way upstream's writer does:
// JSON.stringify(index, null, 2) + "\n".
func index(t *testing.T, entries ...map[string]any) []byte {
	t.Helper()
	if entries == nil {
		entries = []map[string]any{}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(map[string]any{"version": "1", "entries": entries}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func entry(id, typ string, extra map[string]any) map[string]any {
	e := map[string]any{"id": id, "type": typ, "content": "c", "metadata": map[string]any{"createdAt": "2026-01-01T00:00:00Z"}}
	for k, v := range extra {
		e[k] = v
	}
	return e
}

func live(t *testing.T, st Store) map[string]bool {
	t.Helper()
	m := map[string]bool{}
	for _, e := range st.Entries {
		m[e.ID()] = e.Live
	}
	return m
}

// TestMemoryLiveness is SPEC D3's table: live knowledge, live
// suppressions (findActiveSuppressions' own rules), and candidates.
func TestMemoryLiveness(t *testing.T) {
	past, future := "2026-05-01T00:00:00Z", "2026-07-01T00:00:00Z"
	cases := []struct {
		name string
		e    map[string]any
		live bool
	}{
		{"adr active", entry("a", "adr", nil), true},
		{"decision status absent", entry("a", "decision", nil), true},
		{"pattern status null", entry("a", "pattern", map[string]any{"status": nil}), true},
		{"unknown type active", entry("a", "novel", map[string]any{"status": "active"}), true},
		{"wontfix archived", entry("a", "wontfix", map[string]any{"status": "archived"}), false},
		{"adr superseded", entry("a", "adr", map[string]any{"status": "superseded", "supersededBy": "b"}), false},
		// Expired is a candidate whatever its status (SPEC D3, decision 74).
		{"adr expired, still active", entry("a", "adr", map[string]any{"expiresAt": past}), false},
		{"decision status absent, context.expiresAt past", entry("a", "decision", map[string]any{"context": map[string]any{"expiresAt": past}}), false},
		{"adr expired and archived", entry("a", "adr", map[string]any{"expiresAt": past, "status": "archived"}), false},
		{"adr expires later", entry("a", "adr", map[string]any{"expiresAt": future}), true},
		{"adr expires exactly now", entry("a", "adr", map[string]any{"expiresAt": "2026-06-01T00:00:00.000Z"}), false},
		{"adr expires half a second after now", entry("a", "adr", map[string]any{"expiresAt": "2026-06-01T00:00:00.500Z"}), true},
		{"adr expiresAt before context.expiresAt", entry("a", "adr", map[string]any{"expiresAt": future, "context": map[string]any{"expiresAt": past}}), true},
		{"suppression active status, context expired", entry("a", "suppression", map[string]any{"context": map[string]any{"active": true, "expiresAt": past}}), false},
		{"suppression status absent, expired, context inactive", entry("a", "suppression", map[string]any{"context": map[string]any{"active": false, "expiresAt": past}}), false},
		// findActiveSuppressions compares strings: "…00.000Z" < "…00.000Z"
		// is false, so it still applies a suppression expiring exactly now,
		// and one whose expiry string sorts after now's; it stays.
		{"suppression expiring exactly now still applies", entry("a", "suppression", map[string]any{"context": map[string]any{"active": true, "expiresAt": "2026-06-01T00:00:00.000Z"}}), true},
		{"suppression expired by date, applied by string", entry("a", "suppression", map[string]any{"context": map[string]any{"active": true, "expiresAt": "2026-06-01T00:00:00Z"}}), true},
		{"suppression applied, expiresAt past on top", entry("a", "suppression", map[string]any{"expiresAt": past, "context": map[string]any{"active": true}}), true},
		{"adr unparseable expiry stays", entry("a", "adr", map[string]any{"expiresAt": "soon"}), true},
		{"pattern context.expiresAt past, archived", entry("a", "pattern", map[string]any{"status": "archived", "context": map[string]any{"expiresAt": past}}), false},
		{"review active is an event", entry("a", "review", nil), false},
		{"eval_result is an event", entry("a", "eval_result", map[string]any{"status": "active"}), false},
		{"suppression active", entry("a", "suppression", map[string]any{"context": map[string]any{"active": true}}), true},
		{"suppression archived but applied", entry("a", "suppression", map[string]any{"status": "archived", "context": map[string]any{"active": true}}), true},
		{"suppression archived, context inactive", entry("a", "suppression", map[string]any{"status": "archived", "context": map[string]any{"active": false}}), false},
		{"suppression archived, active 1 is truthy", entry("a", "suppression", map[string]any{"status": "archived", "context": map[string]any{"active": 1}}), true},
		{"suppression archived, active 0 is falsy", entry("a", "suppression", map[string]any{"status": "archived", "context": map[string]any{"active": 0}}), false},
		{"suppression archived, active \"\" is falsy", entry("a", "suppression", map[string]any{"status": "archived", "context": map[string]any{"active": ""}}), false},
		{"suppression archived, expired (string <)", entry("a", "suppression", map[string]any{"status": "archived", "context": map[string]any{"active": true, "expiresAt": past}}), false},
		{"suppression archived, expires later", entry("a", "suppression", map[string]any{"status": "archived", "context": map[string]any{"active": true, "expiresAt": future}}), true},
		{"suppression archived, expiresAt not a date compares as string", entry("a", "suppression", map[string]any{"status": "archived", "context": map[string]any{"active": true, "expiresAt": "zzz"}}), true},
		{"resurface active", entry("a", "resurface", map[string]any{"context": map[string]any{"suppressionId": "s", "action": "revoke"}}), true},
		{"resurface superseded", entry("a", "resurface", map[string]any{"status": "superseded"}), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st, err := ParseMemory(store, index(t, c.e), now)
			if err != nil {
				t.Fatal(err)
			}
			if got := live(t, st)["a"]; got != c.live {
				t.Errorf("live = %v, want %v", got, c.live)
			}
		})
	}
}

// TestRevokedSuppressionIsNotApplied: a revoking resurface of any status
// makes an archived suppression a candidate, and the two refer to each
// other (D3).
func TestRevokedSuppressionIsNotApplied(t *testing.T) {
	data := index(t,
		entry("s", "suppression", map[string]any{"status": "archived", "context": map[string]any{"active": true}}),
		entry("r", "resurface", map[string]any{"status": "superseded", "context": map[string]any{"suppressionId": "s", "action": "revoke"}}),
	)
	st, err := ParseMemory(store, data, now)
	if err != nil {
		t.Fatal(err)
	}
	if l := live(t, st); l["s"] || l["r"] {
		t.Fatalf("live = %v, want both candidates", l)
	}
	// Removing only the resurface would reactivate the suppression in
	// findActiveSuppressions: the kept suppression keeps it.
	if got := st.Referenced(map[string]bool{store + "#r": true}); !slices.Equal(got, []string{store + "#r"}) {
		t.Errorf("kept suppression refers to %v, want its resurface", got)
	}
	if got := st.Referenced(map[string]bool{store + "#s": true}); !slices.Equal(got, []string{store + "#s"}) {
		t.Errorf("kept resurface refers to %v, want its suppression", got)
	}
	if got := st.Referenced(map[string]bool{store + "#s": true, store + "#r": true}); got != nil {
		t.Errorf("both removed: %v, want nothing", got)
	}
}

// TestSupersededByIsKept: a kept entry's supersededBy names an entry that
// must stay.
func TestSupersededByIsKept(t *testing.T) {
	data := index(t,
		entry("old", "adr", map[string]any{"status": "superseded", "supersededBy": "mid"}),
		entry("mid", "adr", map[string]any{"status": "superseded", "supersededBy": "new"}),
		entry("new", "adr", nil),
	)
	st, err := ParseMemory(store, data, now)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Referenced(map[string]bool{store + "#mid": true}); !slices.Equal(got, []string{store + "#mid"}) {
		t.Errorf("got %v", got)
	}
	// Transitively: a kept "old" keeps mid, which keeps new, in one round.
	if got := st.Referenced(map[string]bool{store + "#mid": true, store + "#new": true}); !slices.Equal(got, []string{store + "#mid", store + "#new"}) {
		t.Errorf("transitive: got %v", got)
	}
	if got := st.Referenced(map[string]bool{store + "#old": true}); got != nil {
		t.Errorf("nothing refers to old, got %v", got)
	}
	if g := st.Guards(nil); !slices.Equal(g, []string{store + "#new"}) {
		t.Errorf("guards %v", g)
	}
}

func TestNamesAndTimestamps(t *testing.T) {
	data := index(t,
		map[string]any{"id": "a/b c%", "type": "review", "content": "x", "metadata": map[string]any{"createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-02-01T00:00:00.9Z"}},
		map[string]any{"id": "..", "type": "review", "content": "x", "metadata": map[string]any{"createdAt": "nope"}},
		map[string]any{"type": "review", "content": "no id", "metadata": map[string]any{}},
	)
	st, err := ParseMemory(store, data, now)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{store + "#a%2Fb%20c%25", store + "#%2E%2E", store + "#[3]"}
	for i, e := range st.Entries {
		if e.Name != want[i] {
			t.Errorf("name %d = %q, want %q", i, e.Name, want[i])
		}
		if got := string(data[e.Start:e.End]); !strings.HasPrefix(got, "{") || !strings.HasSuffix(got, "}") || e.Size() != len(got) {
			t.Errorf("entry %d bytes %q", i, got)
		}
	}
	if e := st.Entries[0]; !e.Stamped || e.Timestamp != time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC).Unix() {
		t.Errorf("updatedAt wins: %+v", e)
	}
	if st.Entries[1].Stamped || !st.Entries[2].Live || st.Entries[0].Live {
		t.Errorf("entries %+v", st.Entries)
	}
}

func TestNotAnIndex(t *testing.T) {
	for _, in := range []string{``, `[]`, `{"version":"1"}`, `{"entries":{}}`, `{"entries":[],"entries":[]}`, `{"entries":[]} {}`, `{"entries":[1,]}`} {
		if _, err := ParseMemory(store, []byte(in), now); err == nil {
			t.Errorf("%q parsed", in)
		}
	}
}

// TestSpliceUpstreamForm: removing any subset of an index in upstream's
// form gives exactly what upstream's writer writes for the kept entries.
func TestSpliceUpstreamForm(t *testing.T) {
	all := []map[string]any{
		entry("e0", "review", nil), entry("e1", "review", map[string]any{"context": map[string]any{"n": []any{1, "<&>"}}}),
		entry("e2", "review", nil), entry("e3", "review", nil),
	}
	data := index(t, all...)
	st, err := ParseMemory(store, data, now)
	if err != nil {
		t.Fatal(err)
	}
	for mask := 0; mask < 1<<len(all); mask++ {
		removed := map[string]bool{}
		var kept []map[string]any
		for i, e := range all {
			if mask&(1<<i) != 0 {
				removed[store+"#"+e["id"].(string)] = true
			} else {
				kept = append(kept, e)
			}
		}
		if got, want := st.Splice(data, marks(st, removed)), index(t, kept...); !bytes.Equal(got, want) {
			t.Errorf("mask %04b:\n got %q\nwant %q", mask, got, want)
		}
	}
}

// TestSpliceKeepsBytes: a hand-written index keeps every kept byte.
func TestSpliceKeepsBytes(t *testing.T) {
	data := []byte("{\"entries\": [ {\"id\":\"a\"},{\"id\" : \"b\"} ,\n\t{\"id\":\"c\"} ], \"version\":\"1\"}\n")
	st, err := ParseMemory(store, data, now)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ rm, want string }{
		{"a", "{\"entries\": [ {\"id\" : \"b\"} ,\n\t{\"id\":\"c\"} ], \"version\":\"1\"}\n"},
		{"b", "{\"entries\": [ {\"id\":\"a\"},{\"id\":\"c\"} ], \"version\":\"1\"}\n"},
		{"c", "{\"entries\": [ {\"id\":\"a\"},{\"id\" : \"b\"} ], \"version\":\"1\"}\n"},
	} {
		got := st.Splice(data, marks(st, map[string]bool{store + "#" + c.rm: true}))
		if string(got) != c.want {
			t.Errorf("rm %s: %q", c.rm, got)
		}
		if !json.Valid(got) {
			t.Errorf("rm %s: invalid JSON", c.rm)
		}
	}
}

const ledger = "artifacts/evals/results.jsonl"

// TestLedger is SPEC D4's table: the last two non-blank lines are guarded
// (file order, not timestamps), unreadable lines are kept and named.
func TestLedger(t *testing.T) {
	data := []byte(`{"timestamp":"2026-01-03T00:00:00Z","n":1}` + "\n" +
		"\n" +
		`not json` + "\n" +
		`{"timestamp":"yesterday"}` + "\n" +
		`{"timestamp":"2026-01-01T00:00:00Z"}` + "\n" +
		`[1]` + "\n" +
		`{"timestamp":"2026-01-09T00:00:00Z"}` + "\r\n" +
		`{"timestamp":"2026-01-02T00:00:00Z"}`)
	st := ParseLedger(ledger, data)
	type row struct {
		line             int
		live, unreadable bool
	}
	want := []row{{1, false, false}, {3, true, true}, {4, true, true}, {5, false, false}, {6, true, true}, {7, true, false}, {8, true, false}}
	if len(st.Entries) != len(want) {
		t.Fatalf("%d entries, want %d", len(st.Entries), len(want))
	}
	for i, e := range st.Entries {
		if w := want[i]; e.Line() != w.line || e.Live != w.live || e.Unreadable != w.unreadable || e.Name != LineName(ledger, w.line) {
			t.Errorf("entry %d = %+v, want %+v", i, e, w)
		}
	}
	if e := st.Entries[0]; e.RawTimestamp(data) != "2026-01-03T00:00:00Z" || e.Size() != len(`{"timestamp":"2026-01-03T00:00:00Z","n":1}`)+1 {
		t.Errorf("line 1: %+v", e)
	}
	got := st.Splice(data, marks(st, map[string]bool{LineName(ledger, 1): true, LineName(ledger, 5): true}))
	if want := bytes.Replace(bytes.Replace(data, []byte(`{"timestamp":"2026-01-03T00:00:00Z","n":1}`+"\n"), nil, 1),
		[]byte(`{"timestamp":"2026-01-01T00:00:00Z"}`+"\n"), nil, 1); !bytes.Equal(got, want) {
		t.Errorf("splice:\n%q\nwant\n%q", got, want)
	}
}

func TestLedgerFewLines(t *testing.T) {
	for _, in := range []string{"", "\n\n", `{"timestamp":"2026-01-01T00:00:00Z"}`} {
		for _, e := range ParseLedger(ledger, []byte(in)).Entries {
			if !e.Live {
				t.Errorf("%q: %+v not guarded", in, e)
			}
		}
	}
}

// TestExpired: expiresAt, else context.expiresAt, at or before now is
// expired, and an expired active entry is not live (SPEC D3); an expiry
// that does not parse is none.
func TestExpired(t *testing.T) {
	data := index(t,
		entry("a", "adr", map[string]any{"expiresAt": "2026-06-01T00:00:00Z"}),
		entry("b", "adr", map[string]any{"context": map[string]any{"expiresAt": "2026-05-31T23:59:59Z"}}),
		entry("c", "adr", map[string]any{"expiresAt": "2026-06-01T00:00:01Z"}),
		entry("d", "adr", map[string]any{"expiresAt": "soon"}),
	)
	st, err := ParseMemory(store, data, now)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, true, false, false} {
		if e := st.Entries[i]; e.Expired != want || e.Live == want {
			t.Errorf("%s: expired %v live %v, want expired %v and live %v", e.ID(), e.Expired, e.Live, want, !want)
		}
	}
}

// marks is Splice's argument for the entries whose names are in names.
func marks(st Store, names map[string]bool) []bool {
	m := make([]bool, len(st.Entries))
	for i, e := range st.Entries {
		m[i] = names[e.Name]
	}
	return m
}

// TestIDFromName: a memory entry's id comes back from its name for every
// byte string (EscapeID's %XX is undone, "." and ".." included), and a
// ledger line or an element named by its position has none.
func TestIDFromName(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	ids := []string{"a", ".", "..", "...", "%", "%25", "#", "a#b", "[1]", "\xed\xa0\x80", "é", "x y", "~:@+-._", "%2E"}
	for range 2000 {
		b := make([]byte, 1+rng.IntN(12))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		ids = append(ids, string(b))
	}
	for _, id := range ids {
		if got := (Entry{Name: MemoryName(store, id)}).ID(); got != id {
			t.Fatalf("id %q: named %q, read back %q", id, MemoryName(store, id), got)
		}
	}
	if got := (Entry{Name: positionName(store, 3)}).ID(); got != "" {
		t.Errorf("an element named by its position: id %q", got)
	}
	if got := (Entry{Name: LineName(ledger, 7), ledger: true}).ID(); got != "" {
		t.Errorf("a ledger line: id %q", got)
	}
}

// TestLedgerTimestampFarIntoItsLine: a timestamp that starts further into
// its line than the entry's 16-bit offset reaches is read back whole (the
// line is read again), escapes decoded.
func TestLedgerTimestampFarIntoItsLine(t *testing.T) {
	pad := strings.Repeat("x", 70000)
	data := []byte(`{"pad":"` + pad + `","timestamp":"2026-01-01T00:00:00\u002e000Z"}` + "\n" +
		`{"timestamp":"2026-01-02T00:00:00Z","pad":"` + pad + `"}` + "\r\n" + "\n" + "\n")
	st := ParseLedger(ledger, data)
	if len(st.Entries) != 2 {
		t.Fatalf("%d entries", len(st.Entries))
	}
	for i, want := range []string{"2026-01-01T00:00:00.000Z", "2026-01-02T00:00:00Z"} {
		if got := st.Entries[i].RawTimestamp(data); got != want {
			t.Errorf("line %d: timestamp %q, want %q", i+1, got, want)
		}
	}
}

// TestEntryIsSmall: an entry is 48 bytes, what bench/stores' memory
// figures assume (SPEC B6: 200 B an entry in all, with the engine's
// records); a field added to it spends that budget.
func TestEntryIsSmall(t *testing.T) {
	if n := unsafe.Sizeof(Entry{}); n > 48 {
		t.Errorf("an Entry is %d bytes, want at most 48", n)
	}
}
