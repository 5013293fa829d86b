package entries

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
	"unicode/utf16"

	"github.com/plangate-gc/plangate-gc/internal/rfc3339"
)

// ErrNotIndex means the memory index is not one JSON object with an
// entries array and no repeated top-level key: it is not judged.
var ErrNotIndex = errors.New("not a Riverbed index: want one JSON object with an entries array")

// record is the part of a Riverbed entry the rules read.
type record struct {
	ID           any             `json:"id"`
	Type         any             `json:"type"`
	Status       any             `json:"status"`
	SupersededBy any             `json:"supersededBy"`
	ExpiresAt    any             `json:"expiresAt"`
	Metadata     json.RawMessage `json:"metadata"`
	Context      json.RawMessage `json:"context"`
}

type metadata struct {
	UpdatedAt any `json:"updatedAt"`
	CreatedAt any `json:"createdAt"`
}

type context struct {
	Active        any `json:"active"`
	ExpiresAt     any `json:"expiresAt"`
	SuppressionID any `json:"suppressionId"`
	Action        any `json:"action"`
}

// memo is one element's facts, before naming.
type memo struct {
	rec      record
	meta     metadata
	ctx      context
	isObject bool
}

// ParseMemory reads a Riverbed index (SPEC D2, D3) at reference time now
// (epoch seconds). Every element of entries becomes an Entry in file
// order; live ones (D3) are marked Live.
func ParseMemory(path string, data []byte, now int64) (Store, error) {
	st := Store{Path: path, open: -1, close: -1}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return st, ErrNotIndex
	}
	seen := map[string]bool{}
	var memos []memo
	for dec.More() {
		t, err := dec.Token()
		key, ok := t.(string)
		if err != nil || !ok || seen[key] {
			return st, ErrNotIndex
		}
		seen[key] = true
		if key != "entries" {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return st, ErrNotIndex
			}
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('[') {
			return st, ErrNotIndex
		}
		st.open = int(dec.InputOffset()) - 1
		for dec.More() {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return st, ErrNotIndex
			}
			end := int(dec.InputOffset())
			st.Entries = append(st.Entries, Entry{Start: end - len(raw), End: end})
			memos = append(memos, readMemo(raw))
		}
		if t, err := dec.Token(); err != nil || t != json.Delim(']') {
			return st, ErrNotIndex
		}
		st.close = int(dec.InputOffset()) - 1
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return st, ErrNotIndex
	}
	if _, err := dec.Token(); err != io.EOF || st.open < 0 {
		return st, ErrNotIndex
	}
	nameAll(&st, memos, now)
	return st, nil
}

func readMemo(raw json.RawMessage) memo {
	var m memo
	if len(raw) == 0 || raw[0] != '{' || unmarshal(raw, &m.rec) != nil {
		return m
	}
	m.isObject = true
	if unmarshal(m.rec.Metadata, &m.meta) != nil {
		m.meta = metadata{}
	}
	if unmarshal(m.rec.Context, &m.ctx) != nil {
		m.ctx = context{}
	}
	return m
}

// unmarshal decodes numbers as json.Number, so that a literal beyond a
// double (JavaScript's Infinity) still decodes.
func unmarshal(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return dec.Decode(v)
}

// nameAll names, dates and judges the liveness and references of every
// element.
func nameAll(st *Store, memos []memo, now int64) {
	revoked := map[string]bool{}        // suppression ids a revoking resurface names
	resurfaces := map[string][]string{} // suppression id → names of resurfaces naming it
	for i, m := range memos {
		e := &st.Entries[i]
		id, ok := m.rec.ID.(string)
		if !m.isObject || !ok || id == "" {
			e.Name, e.Live = positionName(st.Path, i+1), true
			continue
		}
		e.ID, e.Name = id, MemoryName(st.Path, id)
		if m.rec.Type == "resurface" {
			if sid, ok := m.ctx.SuppressionID.(string); ok && sid != "" {
				if m.ctx.Action == "revoke" {
					revoked[sid] = true
				}
				resurfaces[sid] = append(resurfaces[sid], e.Name)
				e.refs = append(e.refs, MemoryName(st.Path, sid))
			}
		}
		if s, ok := m.rec.SupersededBy.(string); ok && s != "" {
			e.refs = append(e.refs, MemoryName(st.Path, s))
		}
		for _, k := range []any{m.meta.UpdatedAt, m.meta.CreatedAt} {
			if s, ok := k.(string); ok {
				if ts, ok := rfc3339.Unix(s); ok {
					e.Timestamp, e.Stamped = ts, true
					break
				}
			}
		}
	}
	nowISO := time.Unix(now, 0).UTC().Format("2006-01-02T15:04:05.000Z")
	for i, m := range memos {
		e := &st.Entries[i]
		if e.ID == "" {
			continue
		}
		if m.rec.Type == "suppression" {
			e.refs = append(e.refs, resurfaces[e.ID]...)
		}
		e.Live = liveKnowledge(m, now) || liveSuppression(m, revoked[e.ID], nowISO)
		e.Expired = expired(m, now)
	}
}

// liveKnowledge is SPEC D3's live knowledge (decision 74): any type but
// the event records, whose status is active or absent, and which has not
// expired at now. An expired entry is a candidate whatever its status —
// upstream's queryMemory still returns it while active, so its answers
// lose exactly such entries, none of them live (decision 83). A
// suppression findActiveSuppressions still applies is live all the same
// (liveSuppression), even where its JavaScript string comparison and
// expired disagree at the boundary.
func liveKnowledge(m memo, now int64) bool {
	if m.rec.Type == "review" || m.rec.Type == "eval_result" {
		return false
	}
	return (m.rec.Status == nil || m.rec.Status == "active") && !expired(m, now)
}

// expired reports whether the entry's expiresAt (else context.expiresAt)
// is an RFC 3339 instant at or before now (epoch seconds): not after it.
// An expiry that does not parse is no expiry (the entry stays).
func expired(m memo, now int64) bool {
	exp := m.rec.ExpiresAt
	if exp == nil {
		exp = m.ctx.ExpiresAt
	}
	s, ok := exp.(string)
	if !ok || s == "" {
		return false
	}
	t, ok := rfc3339.Unix(s)
	if !ok {
		return false
	}
	// Unix floors: within the second of now, a non-zero fraction is
	// after now.
	return t < now || (t == now && !fraction(s))
}

// fraction reports whether an RFC 3339 timestamp has a non-zero
// fraction of a second.
func fraction(s string) bool {
	if len(s) < 21 || s[19] != '.' {
		return false
	}
	for i := 20; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		if s[i] != '0' {
			return true
		}
	}
	return false
}

// liveSuppression mirrors upstream's findActiveSuppressions at now: a
// suppression of any status applies while context.active is truthy, no
// revoking resurface names it and context.expiresAt is not less (as a
// JavaScript string) than now.toISOString().
func liveSuppression(m memo, revoked bool, nowISO string) bool {
	if m.rec.Type != "suppression" || !truthy(m.ctx.Active) || revoked {
		return false
	}
	if s, ok := m.ctx.ExpiresAt.(string); ok && s != "" && jsLess(s, nowISO) {
		return false
	}
	return true
}

// truthy is JavaScript's truthiness of a decoded JSON value.
func truthy(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case string:
		return v != ""
	case json.Number:
		f, err := v.Float64()
		return err != nil || f != 0 // an overflowing literal is ±Infinity: truthy
	}
	return true // objects and arrays
}

// jsLess compares two strings as JavaScript's < does: by UTF-16 code units.
func jsLess(a, b string) bool {
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := 0; i < len(ua) && i < len(ub); i++ {
		if ua[i] != ub[i] {
			return ua[i] < ub[i]
		}
	}
	return len(ua) < len(ub)
}

// String describes the store for debugging.
func (st Store) String() string { return fmt.Sprintf("%s (%d entries)", st.Path, len(st.Entries)) }
