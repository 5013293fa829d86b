package entries

import (
	"bytes"
	"strconv"
	"strings"
)

// guardedLines is how many of the ledger's last lines stay: upstream's
// compare-eval-ledger compares entries.slice(-2), the last two non-blank
// lines in file order (SPEC D4).
const guardedLines = 2

// ParseLedger reads an eval ledger (SPEC D2, D4, B6) as upstream's
// compare-eval-ledger reads it: the text split on "\n", each line
// trimmed by String.prototype.trim (every JavaScript white space and line
// terminator, U+FEFF included, U+0085 not), blank lines skipped, the rest
// read by JSON.parse. Every non-blank line is an Entry named by its
// 1-based line number. The last two non-blank lines and every line that
// is not a JSON object whose last "timestamp" key is an RFC 3339 string
// are Live; the latter are also Unreadable.
func ParseLedger(path string, data []byte) Store {
	st := Store{Path: path, open: -1, close: -1, Entries: make([]Entry, 0, bytes.Count(data, []byte{'\n'})+1)}
	line := 0
	var f [numFields]value // reused for every line
	for start := 0; start < len(data); {
		end, next := len(data), len(data)
		if k := bytes.IndexByte(data[start:], '\n'); k >= 0 {
			end, next = start+k, start+k+1
		}
		line++
		from, to := jsTrim(data, start, end)
		if from < to {
			e := Entry{Line: line, Start: start, End: next} // named below
			if ts, ok := lineTimestamp(data, from, to, &f); ok {
				e.Timestamp, e.Stamped = ts.stamp()
				e.tsOff = uint16(min(ts.at-1-start, farOff)) // its opening quote
			}
			if !e.Stamped {
				e.Unreadable, e.Live = true, true
			}
			st.Entries = append(st.Entries, e)
		}
		start = next
	}
	nameLines(&st)
	for i := max(0, len(st.Entries)-guardedLines); i < len(st.Entries); i++ {
		st.Entries[i].Live = true
	}
	return st
}

// lineTimestamp reads the line data[start:end] (trimmed or not) as
// JSON.parse does and returns its last "timestamp" member, ok when the
// line is a JSON object and that member a string; f is the reader's
// field buffer, left clear.
func lineTimestamp(data []byte, start, end int, f *[numFields]value) (value, bool) {
	from, to := jsTrim(data, start, end)
	r := reader{b: data[:to], i: from}
	v, ok := r.value(lineLevel, f)
	ts := f[fTimestamp]
	f[fTimestamp] = value{}
	return ts, ok && r.i == to && v.kind == object && ts.kind == stringKind
}

// nameLines names every line (LineName) as a substring of one string
// holding all the names: one allocation, not one a line.
func nameLines(st *Store) {
	n := 0
	for _, e := range st.Entries {
		n += len(st.Path) + 1 + decimalLen(e.Line)
	}
	// A Builder's String is its bytes, not a copy of them (which would be
	// tens of megabytes of garbage at a million lines).
	var b strings.Builder
	b.Grow(n)
	var num [20]byte
	for _, e := range st.Entries {
		b.WriteString(st.Path)
		b.WriteByte('#')
		b.Write(strconv.AppendInt(num[:0], int64(e.Line), 10))
	}
	all, at := b.String(), 0
	for i := range st.Entries {
		k := len(st.Path) + 1 + decimalLen(st.Entries[i].Line)
		st.Entries[i].Name = all[at : at+k]
		at += k
	}
}

// decimalLen is the number of decimal digits of n ≥ 0.
func decimalLen(n int) int {
	d := 1
	for ; n >= 10; n /= 10 {
		d++
	}
	return d
}
