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
		e.Live = liveKnowledge(m) || liveSuppression(m, revoked[e.ID], nowISO)
		e.Expired = expired(m, now)
	}
}

// liveKnowledge: any type but the event records whose status is active
// or absent (SPEC D3, decision 74). An expired entry (expiresAt, else
// context.expiresAt, at or before now) whose status is still active stays
// too: upstream's queryMemory returns every active entry whatever its
// expiry, and D3 requires it to answer the same after a compaction. Once
// upstream's expireEntries archives it, it is a candidate. Expired tells
// whether an entry is expired, for the record.
func liveKnowledge(m memo) bool {
	if m.rec.Type == "review" || m.rec.Type == "eval_result" {
		return false
	}
	return m.rec.Status == nil || m.rec.Status == "active"
}

// expired reports whether the entry's expiresAt (else context.expiresAt)
// is at or before now.
func expired(m memo, now int64) bool {
	exp := m.rec.ExpiresAt
	if exp == nil {
		exp = m.ctx.ExpiresAt
	}
	if s, ok := exp.(string); ok && s != "" {
		if t, ok := rfc3339.Unix(s); ok && t <= now {
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
