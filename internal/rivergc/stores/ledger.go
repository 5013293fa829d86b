package stores

import (
	"github.com/plangate-gc/plangate-gc/internal/prefault"

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
	prefault.Slice(st.Entries)
	line, names := 0, 0    // names: the length of all the lines' names
	var f [numFields]value // reused for every line
	for start := 0; start < len(data); {
		end, next := len(data), len(data)
		if k := bytes.IndexByte(data[start:], '\n'); k >= 0 {
			end, next = start+k, start+k+1
		}
		line++
		from, to := jsTrim(data, start, end)
		if from < to {
			e := Entry{Start: start, End: next, ledger: true} // named below
			names += len(path) + 1 + decimalLen(line)
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
	nameLines(&st, data, names)
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

// nameLines names every line (LineName) as a substring of one string of
// n bytes holding all the names: one allocation, not one a line. The
// line numbers are counted again from the text (an entry holds none: its
// name says it, Entry.Line).
func nameLines(st *Store, data []byte, n int) {
	// Grown to its final size, the Builder never moves its bytes, so each
	// name can be cut from it as it is written (String is its bytes, not
	// a copy: a copy would be tens of megabytes of garbage at a million
	// lines).
	var b strings.Builder
	b.Grow(n)
	var num [20]byte
	line, at := 1, 0
	for i := range st.Entries {
		e := &st.Entries[i]
		line += bytes.Count(data[at:e.Start], []byte{'\n'})
		at = e.Start
		from := b.Len()
		b.WriteString(st.Path)
		b.WriteByte('#')
		b.Write(strconv.AppendInt(num[:0], int64(line), 10))
		e.Name = b.String()[from:]
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
