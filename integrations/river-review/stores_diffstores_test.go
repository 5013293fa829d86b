//go:build linux

package riverreview

import (
	"bytes"
	"fmt"
	"strings"
)

// twinSuffixes turn an id into one JavaScript keeps distinct from it, or
// one only bytes tell apart: invalid UTF-8 (a truncated sequence, a
// surrogate encoded in UTF-8, an overlong form, beyond U+10FFFF), what the
// WHATWG decoder makes of them, lone-surrogate escapes, a pair, and the
// same astral character raw.
var twinSuffixes = []string{"", "\xE2\x82", "\xEF\xBF\xBD", "\xEF\xBF\xBD\xEF\xBF\xBD", "\xED\xA0\x80", `\ud800`, `\udfff`,
	`\uFFFD`, `\ud800\udc00`, "\xF0\x90\x80\x80", "\xC0\xAF", "\xF0\x9F\x98", "\xF4\x90\x80\x80", `\u0000`}

// twinRewrites change an id's letters into case, folding and normalisation
// twins: Go's case-insensitive matching equates the first group, Unicode
// normalisation the second; JavaScript equates none of them.
var twinRewrites = [][2]string{{"s", "ſ"}, {"s", "S"}, {"k", "K"}, {"k", "\u212A"}, {"e", "\u00E9"}, {"e", "e\u0301"},
	{"fi", "\uFB01"}, {"s", `\u0073`}, {"-", "\u2010"}, {"1", "\uFF11"}}

// id returns a new id for an entry of type typ, or (often) a twin of an
// id already written.
func (g *gen) id(typ string) []byte {
	var b []byte
	if len(g.ids) > 0 && g.chance(0.3) {
		b = g.twin(pick(g, g.ids...))
	} else {
		b = escape(fmt.Sprintf("%s-%d", strings.TrimPrefix(typ, "_"), len(g.ids)))
	}
	g.ids = append(g.ids, b)
	return b
}

// twin returns an id JavaScript may or may not hold equal to b.
func (g *gen) twin(b []byte) []byte {
	g.trap("twin id")
	if g.chance(0.5) {
		rw := pick(g, twinRewrites...)
		if bytes.Contains(b, []byte(rw[0])) {
			return bytes.Replace(b, []byte(rw[0]), []byte(rw[1]), 1)
		}
	}
	return append(bytes.Clone(b), pick(g, twinSuffixes...)...)
}

// ref names an id for supersededBy or a revocation: one already written
// (so chains and cycles form), a twin of one, or one not written yet.
func (g *gen) ref() jv {
	switch {
	case len(g.ids) > 0 && g.chance(0.6):
		return jv{kind: 's', raw: pick(g, g.ids...)}
	case len(g.ids) > 0 && g.chance(0.5):
		return jv{kind: 's', raw: g.twin(pick(g, g.ids...))}
	case g.chance(0.05):
		return tok(pick(g, "5", "5.0", "true", "null"))
	default:
		return str(fmt.Sprintf("entry-%d", len(g.ids)+g.r.IntN(4)))
	}
}

// memoryTypes are upstream's types, weighted, with unknown ones and twins.
var memoryTypes = []string{"adr", "decision", "decision", "pattern", "wontfix", "suppression", "suppression", "suppression",
	"resurface", "resurface", "review", "review", "eval_result", "eval_result", "note", "Decision", "REVIEW", "ſuppression",
	"review\xE2\x82", "eval_result\u00A0", `\u0072eview`, `eval\u005fresult`, `\u0073uppression`, `decisio\u006E`}

// entry generates one memory entry.
func (g *gen) entry() jv {
	typ := pick(g, memoryTypes...)
	id := g.id(typ)
	e := jv{kind: 'o'}
	idv := jv{kind: 's', raw: id}
	if g.chance(0.02) {
		g.trap("number id")
		idv = tok(pick(g, "5", "5.0", "-0", "1e400"))
	}
	if !g.chance(0.02) {
		e.members = append(e.members, member{[]byte("id"), idv})
	} else {
		g.trap("no id")
	}
	switch {
	case g.chance(0.03):
		e.members = append(e.members, member{[]byte("type"), pick(g, tok("5"), tok("null"), str(""), arr())})
	case g.chance(0.03):
	default:
		e.members = append(e.members, member{[]byte("type"), rawStr(typ)})
	}
	e.members = append(e.members, member{[]byte("title"), g.text()}, member{[]byte("content"), g.text()})
	md := obj("createdAt", g.date(), "author", str("river-review"))
	if g.chance(0.3) {
		md.members = append(md.members, member{[]byte("updatedAt"), g.date()})
	}
	if g.chance(0.6) {
		md.members = append(md.members, member{[]byte("tags"), arr(str(pick(g, "auth", "perf", "suppression")), str(pick(g, "active", "db", "ſecurity")))})
	}
	if g.chance(0.5) {
		md.members = append(md.members, member{[]byte("phase"), str(pick(g, "upstream", "midstream", "downstream", "Midstream"))})
	}
	if g.chance(0.7) {
		md.members = append(md.members, member{[]byte("relatedFiles"), arr(str(pick(g, g.files...)))})
	}
	if g.chance(0.02) {
		g.trap("metadata not an object")
		md = pick(g, str("2020-01-01T00:00:00Z"), arr(), tok("null"))
	}
	if g.chance(0.03) {
		g.trap("tags or files as a string")
		md.members = append(md.members, member{[]byte(pick(g, "tags", "relatedFiles")), str(pick(g, "authority", "src/auth/login.ts"))})
	}
	e.members = append(e.members, member{[]byte("metadata"), md})
	if g.chance(0.6) {
		e.members = append(e.members, member{[]byte("status"), pick(g, str("active"), str("active"), str("archived"), str("superseded"),
			str("Active"), str(""), tok("null"), tok("0"), tok("false"), str("active\xE2\x82"), rawStr(`\u0061ctive`), rawStr(`archive\u0064`))})
	}
	if g.chance(0.25) {
		e.members = append(e.members, member{[]byte("expiresAt"), g.date()})
	}
	if g.chance(0.2) {
		e.members = append(e.members, member{[]byte("supersededBy"), g.ref()})
	}
	if ctx := g.context(typ); ctx != nil {
		if g.chance(0.03) {
			g.trap("context not an object")
			*ctx = pick(g, str("active"), arr(tok("true")), tok("null"), tok("1"))
		}
		e.members = append(e.members, member{[]byte("context"), *ctx})
	}
	return e
}

// context is an entry's context: a suppression's or a revocation's as
// upstream writes them, with every kind of truthiness and odd dates, or
// sometimes a context.expiresAt on another type.
func (g *gen) context(typ string) *jv {
	var c jv
	switch {
	case strings.Contains(typ, "uppression"):
		c = obj("findingId", str("F1"), "findingHash", tok("null"), "scope", pick(g, str("file"), str("file"), str("global"), str("subsystem"), str("File")),
			"active", g.jsValue())
		if g.chance(0.4) {
			c.members = append(c.members, member{[]byte("expiresAt"), g.date()})
		}
	case typ == "resurface":
		c = obj("suppressionId", g.ref(), "action", pick(g, str("revoke"), str("revoke"), str("revoke"), str("Revoke"), rawStr("revoke\xE2\x82")))
	case g.chance(0.15):
		c = obj("expiresAt", g.date())
	default:
		return nil
	}
	return &c
}

// index generates .river/memory/index.json: upstream's form of a random
// set of entries, set with traps (see trapIndex).
func (g *gen) index() []byte {
	entries := arr()
	for range g.r.IntN(25) {
		if g.chance(0.03) {
			g.trap("entry not an object")
			entries.items = append(entries.items, pick(g, tok("null"), tok("5"), str("entry"), arr()))
			continue
		}
		entries.items = append(entries.items, g.entry())
	}
	doc := obj("version", str("1"), "entries", entries)
	if g.chance(0.02) {
		g.trap("index not an object of entries")
		doc = pick(g, arr(entries), obj("version", str("1"), "entries", obj("0", g.entry())), obj("version", str("1"), "entries", tok("null")),
			obj("version", str("1")), str("entries"))
	}
	return g.trapIndex(doc)
}

// ledger generates artifacts/evals/results.jsonl: evaluate-all's envelopes,
// with traps (see trapLine).
func (g *gen) ledger() []byte {
	var b bytes.Buffer
	n := g.r.IntN(12)
	for i := range n {
		line := obj("timestamp", g.date(), "commit", str(fmt.Sprintf("%040x", g.r.Uint64())), "branch", pick(g, str("main"), str("main"), str("ma\u2028in"), str("ma\u0085in"), rawStr("ma\rin"), rawStr("ma\tin")),
			"scores", obj("precision", pick(g, tok("0.9"), tok("0.85"), tok("-0"), tok("1e400"), tok("1")), "fail_x", num(int64(g.r.IntN(3)))))
		b.Write(g.trapLine(line, i == n-1))
	}
	return b.Bytes()
}
