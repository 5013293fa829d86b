package stores

import (
	"math"
	"strconv"
	"time"
)

// This file holds what upstream's JavaScript makes of a picked value:
// its truthiness, its string, and new Date(value) compared with now.

// truthy is JavaScript's truthiness of a JSON value: false, null, 0, -0
// and "" are falsy, as is a key that is absent (undefined).
func (v value) truthy() bool {
	switch v.kind {
	case absent, null, falseKind:
		return false
	case stringKind:
		return len(v.raw) > 0
	case number:
		return v.double() != 0
	}
	return true
}

// double is a number's value as JSON.parse reads it: the nearest double
// (±Infinity beyond the range, ±0 below it).
func (v value) double() float64 {
	f, _ := strconv.ParseFloat(string(v.raw), 64) // ±Inf on overflow
	return f
}

// is reports whether v is the string s (compared as JavaScript strings).
func (v value) is(s string) bool {
	if v.kind != stringKind {
		return false
	}
	if plain(v.raw) {
		return string(v.raw) == s
	}
	return decodeString(v.raw) == s
}

// text is a string value's WTF-8 form, "" for any other value.
func (v value) text() string {
	if v.kind != stringKind {
		return ""
	}
	return decodeString(v.raw)
}

// stamp reads a string value as a timestamp in epoch seconds (floored),
// as JavaScript's Date reads it where that is certain (parseDate): an
// entry's own time (SPEC D2). A leap second (:60) is Invalid Date to
// JavaScript and so not read here.
func (v value) stamp() (int64, bool) {
	var ms int64
	var ok bool
	switch {
	case v.kind != stringKind:
		return 0, false
	case plain(v.raw):
		ms, ok = parseDate(v.raw)
	default:
		ms, ok = parseDate(decodeString(v.raw))
	}
	if !ok {
		return 0, false
	}
	s := ms / 1000
	if ms%1000 < 0 {
		s--
	}
	return s, true
}

// dateVerdict is what new Date(x) <= now says, where river gc can tell.
type dateVerdict uint8

const (
	notPast dateVerdict = iota // a valid date after now, or Invalid Date (NaN compares false)
	past                       // a valid date at or before now
	unknown                    // a string V8 may read by rules not reproduced here
)

// maxTime is ECMAScript's TimeClip bound, in milliseconds.
const maxTime = 8.64e15

// dateAtOrBefore is upstream's expiry test, `x && new Date(x) <= now`
// (expireEntries; suppression-analytics likewise), at nowMs. A falsy x
// never expires; a number is a time value, true is 1 ms; an object is
// "[object Object]", which is Invalid Date; an array becomes a string of
// its elements, which is not reproduced (unknown); a string is read by
// parseDate, and what it cannot read is unknown.
func dateAtOrBefore(x value, nowMs int64) dateVerdict {
	if !x.truthy() {
		return notPast
	}
	var t float64
	switch x.kind {
	case trueKind:
		t = 1
	case number:
		t = x.double()
	case stringKind:
		ms, ok := parseDate(x.text())
		if !ok {
			return unknown
		}
		t = float64(ms)
	case object:
		return notPast
	default: // array
		return unknown
	}
	if math.IsInf(t, 0) || math.Abs(t) > maxTime {
		return notPast // Invalid Date
	}
	if math.Trunc(t) <= float64(nowMs) {
		return past
	}
	return notPast
}

// parseDate reads the forms of ECMAScript's date time string format whose
// meaning V8 gives exactly, in epoch milliseconds: YYYY, YYYY-MM,
// YYYY-MM-DD (UTC), and YYYY-MM-DDTHH:mm[:ss[.s+]] with Z or ±HH:mm ("t"
// and "z" in either case; fractions truncated to milliseconds; 24:00
// only as 24:00:00.000; a day up to 31 counts on into the next month, as
// V8 does). Anything else — a local time without an offset, an extended
// year, another form V8's legacy parser may accept — is not read (false),
// and the caller keeps the entry.
func parseDate[T string | []byte](s T) (int64, bool) {
	num := func(i, n int) (int, bool) {
		if i+n > len(s) {
			return 0, false
		}
		v := 0
		for k := i; k < i+n; k++ {
			c := s[k]
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int(c-'0')
		}
		return v, true
	}
	year, ok := num(0, 4)
	if !ok {
		return 0, false
	}
	month, day, i := 1, 1, 4
	if i < len(s) && s[i] == '-' {
		if month, ok = num(i+1, 2); !ok || month < 1 || month > 12 {
			return 0, false
		}
		i += 3
		if i < len(s) && s[i] == '-' {
			if day, ok = num(i+1, 2); !ok || day < 1 || day > 31 {
				return 0, false
			}
			i += 3
		}
	}
	base := time.Date(year, time.Month(month), 1, 0, 0, 0, 0, time.UTC).UnixMilli() + int64(day-1)*86400000
	if i == len(s) {
		return base, true // date-only forms are UTC
	}
	if i != 10 || (s[i] != 'T' && s[i] != 't') {
		return 0, false
	}
	hour, ok1 := num(11, 2)
	minute, ok2 := num(14, 2)
	if !ok1 || !ok2 || len(s) < 17 || s[13] != ':' || hour > 24 || minute > 59 {
		return 0, false
	}
	sec, ms, i := 0, 0, 16
	if s[i] == ':' {
		if sec, ok = num(i+1, 2); !ok || sec > 59 {
			return 0, false
		}
		i += 3
		if i < len(s) && s[i] == '.' {
			i++
			n := 0
			for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
				if n < 3 {
					ms = ms*10 + int(s[i]-'0')
				}
				n++
			}
			if n == 0 {
				return 0, false
			}
			for ; n < 3; n++ {
				ms *= 10
			}
		}
	}
	if hour == 24 && (minute != 0 || sec != 0 || ms != 0) {
		return 0, false
	}
	offset := 0
	switch rest := s[i:]; {
	case len(rest) == 1 && (rest[0] == 'Z' || rest[0] == 'z'):
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, ok1 := num(i+1, 2)
		om, ok2 := num(i+4, 2)
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return 0, false
		}
		offset = (oh*60 + om) * 60000
		if rest[0] == '-' {
			offset = -offset
		}
	default:
		return 0, false // no offset: local time, which depends on TZ
	}
	return base + int64(((hour*60+minute)*60+sec)*1000+ms-offset), true
}
