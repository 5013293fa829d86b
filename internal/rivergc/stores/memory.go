package stores

import (
	"github.com/plangate-gc/plangate-gc/internal/prefault"

	"bytes"
	"errors"
	"fmt"
	"slices"
	"time"
)

// ErrNotIndex means the memory index is not one JSON object with an
// entries array and no repeated top-level key: it is not judged.
var ErrNotIndex = errors.New("not a Riverbed index: want one JSON object with an entries array")

// ParseMemory reads a Riverbed index (SPEC D2, D3, B6) at reference time
// now (epoch seconds) as upstream reads it: readFileSync(p, 'utf-8') and
// JSON.parse (see jsread.go). Every element of entries becomes an Entry in
// file order; live ones (D3) are marked Live. A text JSON.parse rejects (a
// BOM included), or one that is not an object with an entries array, or
// one with a repeated top-level key, is ErrNotIndex: it is not judged.
//
// It is one pass over the bytes: each element is judged as it is read
// (its fields picked in place into one reused buffer), and only the
// suppressions wait for the revocations of the whole index.
func ParseMemory(path string, data []byte, now int64) (Store, error) {
	st := Store{Path: path, open: -1, close: -1}
	r := reader{b: data}
	r.space()
	if r.i >= len(data) || data[r.i] != '{' {
		return st, ErrNotIndex
	}
	r.i++
	r.space()
	var keys []string
	for r.i < len(data) && data[r.i] != '}' {
		if len(keys) > 0 {
			if data[r.i] != ',' {
				return st, ErrNotIndex
			}
			r.i++
			r.space()
		}
		if r.i >= len(data) || data[r.i] != '"' {
			return st, ErrNotIndex
		}
		raw, ok := r.str()
		key := decodeString(raw)
		if !ok || slices.Contains(keys, key) {
			return st, ErrNotIndex
		}
		keys = append(keys, key)
		r.space()
		if r.i >= len(data) || data[r.i] != ':' {
			return st, ErrNotIndex
		}
		r.i++
		r.space()
		if key != "entries" {
			if _, ok := r.value(nil, nil); !ok {
				return st, ErrNotIndex
			}
		} else if !st.readEntries(&r, now) {
			return st, ErrNotIndex
		}
		r.space()
	}
	if r.i >= len(data) || st.open < 0 {
		return st, ErrNotIndex
	}
	r.i++ // '}'
	r.space()
	if r.i != len(data) {
		return st, ErrNotIndex
	}
	return st, nil
}

// memoryPass is what judging the elements one by one leaves for the end:
// the suppressions that apply unless revoked, and the resurfaces.
type memoryPass struct {
	now        int64
	nowISO     string
	revoked    map[string]bool     // suppression ids a revoking resurface names
	resurfaces map[string][]string // suppression id → names of resurfaces naming it
	applies    []int               // suppressions that apply unless revoked
	sups       []int               // every suppression with an id
	names      names               // the entries' names
}

// readEntries reads the entries array, judging each element as it goes.
func (st *Store) readEntries(r *reader, now int64) bool {
	if r.i >= len(r.b) || r.b[r.i] != '[' {
		return false
	}
	st.open = r.i
	r.i++
	r.space()
	// About one "id" key an element: one allocation rather than a growth
	// series (which would peak at twice the entries).
	st.Entries = make([]Entry, 0, bytes.Count(r.b[r.i:], []byte(`"id"`))+1)
	prefault.Slice(st.Entries)
	p := memoryPass{now: now, nowISO: time.Unix(now, 0).UTC().Format("2006-01-02T15:04:05.000Z")}
	var f [numFields]value // reused: one element's fields at a time
	counted := false       // the elements left were counted once (growEntries)
	for n := 0; r.i < len(r.b) && r.b[r.i] != ']'; n++ {
		if n > 0 {
			if r.b[r.i] != ',' {
				return false
			}
			r.i++
			r.space()
		}
		start := r.i
		f = [numFields]value{}
		v, ok := r.value(entryLevel, &f)
		if !ok {
			return false
		}
		if v.kind != object {
			f = [numFields]value{} // not an object: no fields, no id
		}
		if len(st.Entries) == cap(st.Entries) {
			st.Entries = growEntries(st.Entries, &counted, r.b, r.i)
		}
		st.Entries = append(st.Entries, Entry{Start: start, End: r.i})
		st.judgeElement(&p, &f, len(st.Entries)-1)
		r.space()
	}
	if r.i >= len(r.b) {
		return false
	}
	st.close = r.i
	r.i++
	for _, i := range p.sups {
		e := &st.Entries[i]
		for _, name := range p.resurfaces[e.ID()] {
			st.refs = append(st.refs, ref{from: i, to: name})
		}
	}
	// By entry, for Referenced's binary search (stable: file order within).
	slices.SortStableFunc(st.refs, func(a, b ref) int { return a.from - b.from })
	for _, i := range p.applies {
		if !p.revoked[st.Entries[i].ID()] {
			st.Entries[i].Live = true
		}
	}
	return true
}

// growEntries makes room for the elements still to read when the count
// of "id" keys fell short (elements without an id: an index of 300,000
// 1s has none, and a growth series allocated 85 MB for its 14): the
// element just read, at b[:i], and those after it, counted once
// (elementsLeft), so that the slice is exactly as long as the array (an
// estimate a tenth over was 1.4 MB at 300,000). A count that still falls
// short (JSON.parse rejects the text further on) grows as append does.
func growEntries(es []Entry, counted *bool, b []byte, i int) []Entry {
	more := len(es) + 1
	if !*counted {
		more, *counted = 1+elementsLeft(b, i), true
	}
	grown := make([]Entry, len(es), len(es)+more)
	prefault.Slice(grown)
	copy(grown, es)
	return grown
}

// elementsLeft counts the elements of an array after the one that ends
// at b[i]: the commas outside strings and nested values before the ']'
// that closes it. A text that is not JSON is counted somehow: the count
// only sizes a slice.
func elementsLeft(b []byte, i int) int {
	n, depth := 0, 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			depth++
		case ']', '}':
			if depth == 0 {
				return n
			}
			depth--
		case ',':
			if depth == 0 {
				n++
			}
		}
	}
	return n
}

// judgeElement names, dates and judges element i (SPEC D3) from its
// fields, with upstream's comparisons: ids, types and suppression ids as
// JavaScript strings, findActiveSuppressions' string comparison of
// context.expiresAt, expireEntries' new Date(x) <= now.
func (st *Store) judgeElement(p *memoryPass, f *[numFields]value, i int) {
	e := &st.Entries[i]
	named := f[fID].kind == stringKind && len(f[fID].raw) > 0
	if !named {
		// Named by position and kept; what it refers to is kept too
		// (below), as for any kept entry.
		e.Name, e.Live = p.names.memoryName(st.Path, "", i+1), true
	} else {
		e.Name = p.names.memoryName(st.Path, f[fID].text(), 0) // the id is the name's, unescaped (Entry.ID)
	}
	if f[fType].is("resurface") {
		sid, revoke := f[fSuppressionID], f[fAction].is("revoke")
		switch {
		case sid.kind == stringKind && len(sid.raw) > 0:
			s := sid.text()
			if p.revoked == nil {
				p.revoked, p.resurfaces = map[string]bool{}, map[string][]string{}
			}
			if revoke {
				p.revoked[s] = true
			}
			p.resurfaces[s] = append(p.resurfaces[s], e.Name)
			st.refs = append(st.refs, ref{from: i, to: MemoryName(st.Path, s)})
		case revoke && sid.truthy():
			// It may revoke a suppression whose id is not a string
			// (Set.has compares numbers and true by value): kept.
			e.Live = true
		}
	}
	if f[fSupersededBy].kind == stringKind && len(f[fSupersededBy].raw) > 0 {
		st.refs = append(st.refs, ref{from: i, to: MemoryName(st.Path, f[fSupersededBy].text())})
	}
	if !named {
		return
	}
	// Its time: metadata.updatedAt, else metadata.createdAt. A value
	// that is there but not read as Date reads it keeps the entry: its age
	// is not known (falling back to an older createdAt could remove a
	// young entry).
	stampUnknown := false
	for _, k := range []int{fUpdatedAt, fCreatedAt} {
		if f[k].kind == absent || f[k].kind == null {
			continue
		}
		if e.Timestamp, e.Stamped = f[k].stamp(); !e.Stamped {
			stampUnknown = true
		}
		break
	}
	verdict := p.expiry(f)
	knowledge := liveKnowledge(f, verdict)
	applies, undecided := liveSuppression(f, p.nowISO)
	if f[fType].is("suppression") {
		p.sups = append(p.sups, i)
	}
	if applies {
		p.applies = append(p.applies, i)
	}
	e.Live = e.Live || knowledge || stampUnknown
	e.Expired = verdict == past
	// An expiry, a suppression's expiry or a time that river gc cannot
	// read as upstream does decided to keep the entry: named in a warning.
	e.Undecided = (verdict == unknown && knowledge) || undecided || (stampUnknown && !knowledge && !applies)
}

// expiry is whether a knowledge entry has expired at now: its expiresAt
// as upstream's expireEntries reads it (x && new Date(x) <= now), else
// its context.expiresAt — which upstream's only reader of it,
// findActiveSuppressions, compares as a string (x < now.toISOString()) —
// expired only when both readings agree (a string, at or before now as a
// date and less as a string); where they disagree one of upstream's
// readings keeps the entry alive.
func (p *memoryPass) expiry(f *[numFields]value) dateVerdict {
	if x := f[fExpiresAt]; x.kind != absent && x.kind != null {
		return dateAtOrBefore(x, p.now*1000)
	}
	x := f[fCtxExpiresAt]
	v := dateAtOrBefore(x, p.now*1000)
	if v == past && !(x.kind == stringKind && jsLess(x.text(), p.nowISO)) {
		return notPast
	}
	return v
}

// liveKnowledge is SPEC D3's live knowledge (decision 74): any type but
// the event records, whose status is active or absent (status ?? 'active'
// === 'active'), and which has not expired at now. An expired entry is a
// candidate whatever its status — upstream's queryMemory still returns it
// while active, so its answers lose exactly such entries, none of them
// live (decision 83). An expiry river gc cannot read (unknown) keeps it.
func liveKnowledge(f *[numFields]value, expiry dateVerdict) bool {
	if f[fType].is("review") || f[fType].is("eval_result") {
		return false
	}
	st := f[fStatus]
	return (st.kind == absent || st.kind == null || st.is("active")) && expiry != past
}

// liveSuppression mirrors upstream's findActiveSuppressions at now: a
// suppression of any status applies while context.active is truthy, no
// revoking resurface names it (the caller's part) and context.expiresAt, if truthy, is not
// less than now.toISOString() (JavaScript's <: strings by UTF-16 code
// units; a number or true against that string is false, an object is
// "[object Object]"). An array's string is not reproduced: it is kept as
// if it applied, and undecided says so.
func liveSuppression(f *[numFields]value, nowISO string) (applies, undecided bool) {
	if !f[fType].is("suppression") || !f[fActive].truthy() {
		return false, false
	}
	switch exp := f[fCtxExpiresAt]; {
	case !exp.truthy():
	case exp.kind == stringKind && jsLess(exp.text(), nowISO):
		return false, false
	case exp.kind == array:
		return true, true
	}
	return true, false
}

// String describes the store for debugging.
func (st Store) String() string { return fmt.Sprintf("%s (%d entries)", st.Path, len(st.Entries)) }
