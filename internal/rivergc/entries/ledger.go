package entries

import (
	"bytes"
	"encoding/json"

	"github.com/plangate-gc/plangate-gc/internal/rfc3339"
)

// guardedLines is how many of the ledger's last lines stay: upstream's
// compare-eval-ledger compares entries.slice(-2), the last two non-blank
// lines in file order (SPEC D4).
const guardedLines = 2

// ParseLedger reads an eval ledger (SPEC D2, D4): every non-blank line is
// an Entry named by its 1-based line number. The last two non-blank lines
// and every line that is not a JSON object with an RFC 3339 top-level
// timestamp are Live; the latter are also Unreadable.
func ParseLedger(path string, data []byte) Store {
	st := Store{Path: path, open: -1, close: -1}
	line := 0
	for start := 0; start < len(data); {
		end := len(data)
		if i := bytes.IndexByte(data[start:], '\n'); i >= 0 {
			end = start + i + 1
		}
		line++
		text := bytes.TrimSpace(data[start:end])
		if len(text) > 0 {
			e := Entry{Name: LineName(path, line), Line: line, Start: start, End: end}
			var obj struct {
				Timestamp any `json:"timestamp"`
			}
			ts, isString := any(nil), false
			if text[0] == '{' && json.Unmarshal(text, &obj) == nil {
				ts = obj.Timestamp
			}
			if s, ok := ts.(string); ok {
				isString = true
				e.RawTimestamp = s
				e.Timestamp, e.Stamped = rfc3339.Unix(s)
			}
			if !isString || !e.Stamped {
				e.Unreadable, e.Live = true, true
			}
			st.Entries = append(st.Entries, e)
		}
		start = end
	}
	for i := max(0, len(st.Entries)-guardedLines); i < len(st.Entries); i++ {
		st.Entries[i].Live = true
	}
	return st
}
