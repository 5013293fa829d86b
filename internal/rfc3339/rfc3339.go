// Package rfc3339 parses timestamps by the grammar of RFC 3339 §5.6, which
// is both stricter and looser than Go's time.RFC3339 layout: it rejects an
// offset hour of 24 or a comma before the fraction, and accepts a lowercase
// "t"/"z" and a leap second. River gc judges files by these timestamps, so
// "parses as RFC 3339" (SPEC Part B) has to mean exactly that.
package rfc3339

import (
	"regexp"
	"strings"
	"time"
)

// dateTime is RFC 3339's date-time production.
var dateTime = regexp.MustCompile(`^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt]([01]\d|2[0-3]):([0-5]\d):([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$`)

// Unix returns the timestamp as epoch seconds, floored (also before 1970).
// A leap second (:60) counts as the first second of the next minute.
func Unix(s string) (int64, bool) {
	m := dateTime.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	leap := m[6] == "60"
	norm := strings.ToUpper(s)
	if leap {
		norm = norm[:17] + "59" + norm[19:]
	}
	t, err := time.Parse(time.RFC3339Nano, norm)
	if err != nil { // e.g. February 30th: the grammar allows it, the calendar not
		return 0, false
	}
	if leap {
		t = t.Add(time.Second)
	}
	return t.Unix(), true
}
