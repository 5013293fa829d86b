// Package rfc3339 parses timestamps by the grammar of RFC 3339 §5.6, which
// is both stricter and looser than Go's time.RFC3339 layout: it rejects an
// offset hour of 24 or a comma before the fraction, and accepts a lowercase
// "t"/"z" and a leap second. River gc judges files by these timestamps, so
// "parses as RFC 3339" (SPEC Part B) has to mean exactly that.
//
// It is a hand-written scanner rather than a regular expression because
// river gc reads one timestamp per JSON file scanned; a regexp test in
// rfc3339_test.go keeps it to the grammar.
package rfc3339

import "time"

// Unix returns the timestamp as epoch seconds, floored (also before 1970).
// A leap second (:60) counts as the first second of the next minute. It
// takes the bytes of a JSON string as they are, so that scanning a file
// allocates nothing.
func Unix[T string | []byte](s T) (int64, bool) {
	// date-time = full-date "T" partial-time time-offset, fixed positions
	// up to the seconds: YYYY-MM-DDTHH:MM:SS
	if len(s) < 20 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != 't') || s[13] != ':' || s[16] != ':' {
		return 0, false
	}
	year, ok1 := digits(s[0:4])
	month, ok2 := digits(s[5:7])
	day, ok3 := digits(s[8:10])
	hour, ok4 := digits(s[11:13])
	minute, ok5 := digits(s[14:16])
	sec, ok6 := digits(s[17:19])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || month < 1 || month > 12 || day < 1 || day > 31 ||
		hour > 23 || minute > 59 || sec > 60 {
		return 0, false
	}
	rest := s[19:]
	if rest[0] == '.' { // time-secfrac = "." 1*DIGIT; floored away
		i := 1
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i == 1 {
			return 0, false
		}
		rest = rest[i:]
	}
	offset := 0
	switch {
	case len(rest) == 1 && (rest[0] == 'Z' || rest[0] == 'z'):
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, ok1 := digits(rest[1:3])
		om, ok2 := digits(rest[4:6])
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return 0, false
		}
		offset = (oh*60 + om) * 60
		if rest[0] == '-' {
			offset = -offset
		}
	default:
		return 0, false
	}
	t := time.Date(year, time.Month(month), day, hour, minute, 0, 0, time.UTC)
	if t.Day() != day { // e.g. February 30th: the grammar allows it, the calendar not
		return 0, false
	}
	return t.Unix() + int64(sec) - int64(offset), true
}

// digits parses a fixed-width run of ASCII digits.
func digits[T string | []byte](s T) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}
