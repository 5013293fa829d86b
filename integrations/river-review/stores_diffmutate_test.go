//go:build linux

package riverreview

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// diffBase is a pair of stores upstream's own writers wrote (a short
// simulation, simulate-year.mjs): the mutator's material, so that cases
// also start from what upstream really writes.
type diffBase struct {
	index  jv
	ledger []jv
	end    time.Time
}

// simulatedBase runs a short simulation of upstream's writers and reads
// its stores.
func simulatedBase(t *testing.T) *diffBase {
	t.Helper()
	repo, log := simulate(t, small...)
	index, err := os.ReadFile(filepath.Join(repo, ".river/memory/index.json"))
	if err != nil {
		t.Fatal(err)
	}
	b := &diffBase{end: parse(t, log.End)}
	if b.index, err = parseJV(index); err != nil {
		t.Fatalf("upstream's index: %v", err)
	}
	ledger, err := os.ReadFile(filepath.Join(repo, "artifacts/evals/results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSuffix(string(ledger), "\n"), "\n") {
		v, err := parseJV([]byte(l))
		if err != nil {
			t.Fatalf("upstream's ledger line: %v", err)
		}
		b.ledger = append(b.ledger, v)
	}
	if b.index.get("entries") == nil || len(b.index.get("entries").items) == 0 || len(b.ledger) < 3 {
		t.Fatal("the simulation wrote too little to mutate")
	}
	return b
}

// parseJV reads one valid JSON document into a jv, keeping member order
// and every number's text.
func parseJV(data []byte) (jv, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return readJV(dec)
}

func readJV(dec *json.Decoder) (jv, error) {
	t, err := dec.Token()
	if err != nil {
		return jv{}, err
	}
	switch t := t.(type) {
	case json.Delim:
		v := jv{kind: 'a'}
		if t == '{' {
			v.kind = 'o'
		}
		for dec.More() {
			var key []byte
			if v.kind == 'o' {
				k, err := dec.Token()
				if err != nil {
					return jv{}, err
				}
				key = escape(k.(string))
			}
			item, err := readJV(dec)
			if err != nil {
				return jv{}, err
			}
			if v.kind == 'o' {
				v.members = append(v.members, member{key, item})
			} else {
				v.items = append(v.items, item)
			}
		}
		_, err := dec.Token()
		return v, err
	case string:
		return str(t), nil
	case json.Number:
		return tok(t.String()), nil
	case bool:
		return tok(fmt.Sprint(t)), nil
	default:
		return tok("null"), nil
	}
}

// clone is a deep copy of v (the mutator changes its copy in place).
func (v jv) clone() jv {
	c := jv{kind: v.kind, raw: bytes.Clone(v.raw)}
	for _, m := range v.members {
		c.members = append(c.members, member{bytes.Clone(m.key), m.val.clone()})
	}
	for _, it := range v.items {
		c.items = append(c.items, it.clone())
	}
	return c
}

// mutate builds a case's stores from upstream's own: a subset of its
// entries and lines, in order, with their ids twinned, their references
// pointed at twins, and the traps of trapObject, trapIndex and trapLine.
func (g *gen) mutate(b *diffBase) (index, ledger []byte) {
	g.trap("upstream's stores mutated")
	doc := b.index.clone()
	entries := doc.get("entries")
	var kept []jv
	for _, e := range entries.items {
		if g.chance(0.6) {
			kept = append(kept, e)
		}
		if id := e.get("id"); id != nil {
			g.ids = append(g.ids, id.raw)
		}
	}
	for i := range kept {
		e := &kept[i]
		if id := e.get("id"); id != nil && g.chance(0.2) {
			id.raw = g.twin(pick(g, g.ids...))
		}
		if ctx := e.get("context"); ctx != nil && ctx.kind == 'o' {
			if s := ctx.get("suppressionId"); s != nil && g.chance(0.3) {
				*s = g.ref()
			}
		}
		if g.chance(0.1) {
			e.members = append(e.members, member{[]byte("supersededBy"), g.ref()})
		}
	}
	entries.items = kept
	index = g.trapIndex(doc)
	var lines bytes.Buffer
	for i, l := range b.ledger {
		if g.chance(0.7) {
			lines.Write(g.trapLine(l.clone(), i == len(b.ledger)-1))
		}
	}
	return index, lines.Bytes()
}
