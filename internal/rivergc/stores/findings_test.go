package stores

import (
	"strings"
	"testing"
	"time"
)

// TestDifferentialFindings holds the disagreements the randomized
// differential test against upstream found (F1–F3), each as its
// minimal store, at the test's reference time.
func TestDifferentialFindings(t *testing.T) {
	at := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC).Unix()
	memory := func(entry string) string { return `{"version":"1","entries":[` + entry + `]}` }
	dec := func(meta, extra string) string {
		return `{"id":"dec-1","type":"decision","status":"archived","content":"c","metadata":{` + meta + `}` + extra + `}`
	}
	live := `{"id":"dec-1","type":"decision","content":"c","metadata":{"createdAt":"2024-01-01T00:00:00.000Z"}`
	cases := []struct {
		name, index string
		// kept: the entry is a guard; stamp: its timestamp when not kept.
		kept      bool
		undecided bool
		stamp     string
	}{
		// F1: an updatedAt upstream's Date reads as young, river gc not:
		// no fallback to the old createdAt.
		{"F1 space form", memory(dec(`"createdAt":"2024-01-01T00:00:00.000Z","updatedAt":"2025-05-30 00:00:00Z"`, "")), true, true, ""},
		{"F1 extended year", memory(dec(`"createdAt":"2024-01-01T00:00:00.000Z","updatedAt":"+002025-05-30T00:00:00.000Z"`, "")), true, true, ""},
		{"F1 local time", memory(dec(`"createdAt":"2024-01-01T00:00:00.000Z","updatedAt":"2025-05-30T00:00:00"`, "")), true, true, ""},
		{"F1 number", memory(dec(`"createdAt":"2024-01-01T00:00:00.000Z","updatedAt":1748563200000`, "")), true, true, ""},
		{"F1 date only is read", memory(dec(`"createdAt":"2024-01-01T00:00:00.000Z","updatedAt":"2025-05-30"`, "")), false, false, "2025-05-30T00:00:00Z"},
		{"F1 no seconds is read", memory(dec(`"createdAt":"2024-01-01T00:00:00.000Z","updatedAt":"2025-05-30T00:00Z"`, "")), false, false, "2025-05-30T00:00:00Z"},
		{"F1 hour 24 is the next day", memory(dec(`"createdAt":"2024-01-01T00:00:00.000Z","updatedAt":"2025-05-30T24:00:00Z"`, "")), false, false, "2025-05-31T00:00:00Z"},
		{"F1 day overflow as V8", memory(dec(`"createdAt":"2024-01-01T00:00:00.000Z","updatedAt":"2025-02-30T00:00:00Z"`, "")), false, false, "2025-03-02T00:00:00Z"},
		{"F1 null updatedAt falls back", memory(dec(`"createdAt":"2024-01-01T00:00:00.000Z","updatedAt":null`, "")), false, false, "2024-01-01T00:00:00Z"},
		// F2: a leap second is Invalid Date to JavaScript.
		{"F2 leap second (memory)", memory(dec(`"createdAt":"2025-05-30T00:00:00Z","updatedAt":"2024-12-31T23:59:60Z"`, "")), true, true, ""},
		// F3: context.expiresAt of a non-suppression expires it only when
		// the date and findActiveSuppressions' string comparison agree.
		{"F3 offset", memory(live + `,"context":{"expiresAt":"2025-06-01T08:00:00+09:00"}}`), true, false, ""},
		{"F3 true", memory(live + `,"context":{"expiresAt":true}}`), true, false, ""},
		{"F3 number", memory(live + `,"context":{"expiresAt":1744706234}}`), true, false, ""},
		{"F3 equal to now", memory(live + `,"context":{"expiresAt":"2025-06-01T00:00:00.000Z"}}`), true, false, ""},
		{"F3 equal to now, no fraction", memory(live + `,"context":{"expiresAt":"2025-06-01T00:00:00Z"}}`), true, false, ""},
		{"F3 both agree", memory(live + `,"context":{"expiresAt":"2025-05-31T23:59:59.999Z"}}`), false, false, "2024-01-01T00:00:00Z"},
		{"top-level expiresAt as expireEntries", memory(live + `,"expiresAt":"2025-06-01T08:00:00+09:00"}`), false, false, "2024-01-01T00:00:00Z"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st, err := ParseMemory(store, []byte(c.index), at)
			if err != nil || len(st.Entries) != 1 {
				t.Fatalf("ParseMemory: %v, %d entries", err, len(st.Entries))
			}
			e := st.Entries[0]
			if e.Live != c.kept || e.Undecided != c.undecided {
				t.Errorf("live %v undecided %v, want %v %v", e.Live, e.Undecided, c.kept, c.undecided)
			}
			if c.stamp != "" {
				want, _ := time.Parse(time.RFC3339, c.stamp)
				if !e.Stamped || e.Timestamp != want.Unix() {
					t.Errorf("timestamp %d (stamped %v), want %s", e.Timestamp, e.Stamped, c.stamp)
				}
			}
		})
	}
	// F2 in the ledger: a leap second is no readable timestamp (kept,
	// named), not an old line to remove.
	ledger := strings.Join([]string{`{"timestamp":"2024-12-31T23:59:60Z"}`, `{"timestamp":"2025-05-31T00:00:00Z"}`,
		`{"timestamp":"2025-05-31T01:00:00Z"}`, ""}, "\n")
	st := ParseLedger(".river/evals.jsonl", []byte(ledger))
	if len(st.Entries) != 3 || !st.Entries[0].Unreadable || !st.Entries[0].Live {
		t.Errorf("ledger: %+v, want line 1 unreadable and kept", st.Entries)
	}
}

// TestReferencesFromUnnamedEntries is finding F4: an entry kept because
// its id is not a string (a number, -0, 1e400, none) still keeps what it
// refers to — its supersededBy, the suppression it revokes.
func TestReferencesFromUnnamedEntries(t *testing.T) {
	at := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC).Unix()
	old := `"metadata":{"createdAt":"2024-01-01T00:00:00.000Z"}`
	for _, id := range []string{`"id":5,`, `"id":-0,`, `"id":1e400,`, ``} {
		for _, c := range []struct{ name, index, target string }{
			{"supersededBy", `{"version":"1","entries":[{"id":"rev-1","type":"review","content":"c",` + old + `},
				{` + id + `"type":"decision","content":"c",` + old + `,"supersededBy":"rev-1"}]}`, "rev-1"},
			{"revocation", `{"version":"1","entries":[{"id":"suppression-2","type":"suppression","status":"archived","content":"c",` + old +
				`,"context":{"active":true}},{` + id + `"type":"resurface","content":"c",` + old +
				`,"context":{"suppressionId":"suppression-2","action":"revoke"}}]}`, "suppression-2"},
		} {
			t.Run(c.name+" "+id, func(t *testing.T) {
				st, err := ParseMemory(store, []byte(c.index), at)
				if err != nil {
					t.Fatal(err)
				}
				target := MemoryName(store, c.target)
				if st.Entries[0].Live || !st.Entries[1].Live {
					t.Fatalf("live: %v, %v; want the target a candidate and the unnamed entry kept", st.Entries[0].Live, st.Entries[1].Live)
				}
				if got := st.Referenced(map[string]bool{target: true}); len(got) != 1 || got[0] != target {
					t.Errorf("Referenced = %q, want [%s]", got, target)
				}
			})
		}
	}
}
