package stores

import (
	"strings"
	"testing"
)

// TestEntriesSizedExactly: an index whose elements have no "id" (the
// count that sizes the entries falls short) gets an entries slice exactly
// as long as its array, nested values and strings holding ',' and ']'
// included (decision 376); one that JSON.parse rejects is still refused.
func TestEntriesSizedExactly(t *testing.T) {
	for _, elems := range []string{
		strings.Repeat("1,", 999) + "1",
		`1, [1,2,[3]], {"a":",]"}, "x\",]", null`,
		`{"id":"a"}, 1, 2, 3`,
	} {
		st, err := ParseMemory(".river/memory/index.json", []byte(`{"entries":[`+elems+"]}"), 0)
		if err != nil {
			t.Fatalf("%.40s: %v", elems, err)
		}
		if len(st.Entries) != cap(st.Entries) {
			t.Errorf("%.40s: %d entries in a slice of %d", elems, len(st.Entries), cap(st.Entries))
		}
	}
	if _, err := ParseMemory("i.json", []byte(`{"entries":[1,1,}`), 0); err != ErrNotIndex {
		t.Errorf("a broken array: %v", err)
	}
}

// TestFirstAndCount: Unreadable and Undecided name the first such entry
// in file order and count them (decision 377).
func TestFirstAndCount(t *testing.T) {
	st := ParseLedger("l.jsonl", []byte("1\n{\"timestamp\":\"2025-01-01T00:00:00Z\"}\n\nx\n{\"timestamp\":\"2025-01-02T00:00:00Z\"}\n{\"timestamp\":\"2025-01-03T00:00:00Z\"}\n"))
	if first, n := st.Unreadable(); first != "l.jsonl#1" || n != 2 {
		t.Errorf("Unreadable = %q, %d; want l.jsonl#1, 2", first, n)
	}
	if first, n := st.Undecided(); first != "" || n != 0 {
		t.Errorf("Undecided = %q, %d; want none", first, n)
	}
}
