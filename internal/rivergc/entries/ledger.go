package entries

import "bytes"

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
	st := Store{Path: path, open: -1, close: -1}
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
			e := Entry{Name: LineName(path, line), Line: line, Start: start, End: next}
			r := reader{b: data[:to], i: from}
			if v, ok := r.value(lineLevel, &f); ok && r.i == to && v.kind == object && f[fTimestamp].kind == stringKind {
				ts := f[fTimestamp]
				if e.Timestamp, e.Stamped = ts.stamp(); e.Stamped {
					e.tsStart, e.tsEnd = ts.at, ts.at+len(ts.raw)
				}
			}
			f[fTimestamp] = value{}
			if !e.Stamped {
				e.Unreadable, e.Live = true, true
			}
			st.Entries = append(st.Entries, e)
		}
		start = next
	}
	for i := max(0, len(st.Entries)-guardedLines); i < len(st.Entries); i++ {
		st.Entries[i].Live = true
	}
	return st
}
