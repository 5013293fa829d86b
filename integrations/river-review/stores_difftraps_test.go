//go:build linux

package riverreview

import (
	"bytes"
	"slices"
)

// keyTwins are, for each key a reader decides by, keys JSON.parse keeps
// apart from it that a case-insensitive or folding reader does not (and a
// few escapes that JSON.parse reads as the key itself).
var keyTwins = map[string][]string{
	"type":          {"Type", "TYPE", "tYpe", "type\xE2\x82", `\u0074ype`, "type "},
	"status":        {"Status", "STATUS", "ſtatus", `\u0073tatus`, "status\xED\xA0\x80"},
	"expiresAt":     {"EXPIRESAT", "expiresat", "ExpiresAt", "expıresAt", `expires\u0041t`},
	"id":            {"ID", "Id", "ıd", `\u0069d`},
	"supersededBy":  {"SupersededBy", "supersededby", "ſupersededBy"},
	"context":       {"Context", "CONTEXT"},
	"metadata":      {"Metadata"},
	"active":        {"Active", "ACTIVE", `\u0061ctive`},
	"suppressionId": {"SuppressionId", "suppressionID", "ſuppressionId"},
	"action":        {"Action"},
	"createdAt":     {"CreatedAt", "createdat", "createdAt\xE2\x82"},
	"updatedAt":     {"UpdatedAt"},
	"timestamp":     {"Timestamp", "TIMESTAMP", "timeſtamp", `\u0074imestamp`},
	"entries":       {"Entries", "ENTRIES"},
}

// contrast is a value for key that, read instead of the real one, flips
// the decision.
func (g *gen) contrast(key string) jv {
	switch key {
	case "type":
		return str(pick(g, "review", "eval_result", "suppression", "decision"))
	case "status":
		return str(pick(g, "archived", "active", "superseded"))
	case "active":
		return pick(g, tok("false"), tok("true"), tok("0"))
	case "id", "supersededBy", "suppressionId":
		return g.ref()
	case "action":
		return str(pick(g, "revoke", "keep"))
	case "context":
		return obj("active", tok("false"), "expiresAt", str("2000-01-01T00:00:00.000Z"))
	case "metadata":
		return obj("createdAt", str("2000-01-01T00:00:00Z"))
	case "entries":
		return arr()
	default:
		return pick(g, str("2000-01-01T00:00:00.000Z"), str("2999-01-01T00:00:00.000Z"), g.date())
	}
}

// trapObject sets key traps in o and, with less chance, in the objects
// below it: a case or folding twin of a deciding key, or a repeat of one
// with another value (JSON.parse keeps the last).
func (g *gen) trapObject(o *jv, p float64) {
	for i := range o.members {
		m := &o.members[i].val
		if m.kind == 'o' {
			g.trapObject(m, p/2)
		}
	}
	if !g.chance(p) {
		return
	}
	var keys []string
	for _, m := range o.members {
		if _, ok := keyTwins[string(m.key)]; ok {
			keys = append(keys, string(m.key))
		}
	}
	if len(keys) == 0 {
		return
	}
	key := pick(g, keys...)
	at := g.r.IntN(len(o.members) + 1)
	var m member
	if g.chance(0.6) {
		g.trap("key twin " + key)
		m = member{[]byte(pick(g, keyTwins[key]...)), g.contrast(key)}
	} else {
		g.trap("repeated key " + key)
		m = member{[]byte(key), g.contrast(key)}
	}
	o.members = slices.Insert(o.members, at, m)
}

// trapIndex sets traps in an index document and lays it out: upstream's
// own layout mostly, else compact or CRLF; and, rarely, what JSON.parse
// refuses (a BOM, NEL/LS/PS between tokens, invalid UTF-8 outside
// strings, a cut), so that upstream cannot read the index at all.
func (g *gen) trapIndex(doc jv) []byte {
	entries := doc.get("entries")
	if entries == nil {
		entries = &jv{}
	}
	for i := range entries.items {
		if entries.items[i].kind == 'o' {
			g.trapObject(&entries.items[i], 0.25)
		}
	}
	if len(entries.items) > 0 && g.chance(0.1) {
		g.trap("deep nesting")
		e := &entries.items[g.r.IntN(len(entries.items))]
		if e.kind == 'o' {
			// Compact, whatever the layout: laid out, depth d costs d² bytes.
			deep := nest(obj("n", tok(pick(g, "1e400", "-0", "123456789012345678901234567890", "5e-324", "-1e400"))), pick(g, 30, 300, 2000, 10001))
			e.members = append(e.members, member{[]byte("extra"), jv{kind: 'r', raw: deep.encode(compactLayout)}})
		}
	}
	if g.chance(0.08) {
		g.trapObject(&doc, 1)
	}
	l := upstreamLayout
	switch {
	case g.chance(0.1):
		l = compactLayout
	case g.chance(0.1):
		g.trap("CRLF")
		l = layout{"\t", "\r\n", " : "}
	case g.chance(0.05):
		g.trap("CR")
		l = layout{" ", "\r", ":\t"}
	}
	out := append(doc.encode(l), '\n')
	if g.chance(0.05) {
		g.trap("unreadable index")
		switch g.r.IntN(4) {
		case 0:
			out = append([]byte("\xEF\xBB\xBF"), out...)
		case 1:
			out = bytes.Replace(out, []byte("\n"), []byte(pick(g, "\u0085", "\u2028", "\u2029", "\n\xE2\x82")), 1)
		case 2:
			out = out[:len(out)/2]
		default:
			out = append(out, pick(g, "x", "{}", "\x00")...)
		}
	}
	return out
}

// blankish are lines String.prototype.trim makes empty (a BOM alone, CR,
// JavaScript's white space and line terminators) and lines it does not
// (NEL, zero-width space), which JSON.parse then refuses.
var blankish = []string{"", "\xEF\xBB\xBF", "\r", " \t", "\u00A0", "\u3000", "\u2028", "\u2029", "\u000B\u000C", "\u0085", "\u200B"}

// odd lines are ledger lines that are no JSON object with a timestamp.
var oddLines = []string{"[]", "5", "null", `"line"`, "{", `{"timestamp":"2025-01-01T00:00:00Z"}x`, `{"status":"ok"}`,
	`{"timestamp":"2025-01-01T00:00:00Z","commit":"` + "\xE2\x82" + `"}`}

// trapLine lays out one ledger line with traps: key twins and repeats,
// a BOM before it, CR/CRLF/NEL/LS endings, blank-looking and odd lines
// after it, and (for the last) no final newline or a BOM-only last line.
func (g *gen) trapLine(line jv, last bool) []byte {
	g.trapObject(&line, 0.2)
	var b bytes.Buffer
	if g.chance(0.05) {
		g.trap("ledger BOM")
		b.WriteString("\xEF\xBB\xBF")
	}
	if g.chance(0.05) {
		g.trap("white space around a line")
		b.WriteString(pick(g, blankish[2:]...))
	}
	b.Write(line.encode(compactLayout))
	if g.chance(0.05) {
		g.trap("white space around a line")
		b.WriteString(pick(g, blankish[1:]...))
	}
	switch {
	case g.chance(0.05):
		g.trap("ledger CR")
		b.WriteString(pick(g, "\r\n", "\r", "\u0085\n", "\u2028\n"))
	case last && g.chance(0.2):
		g.trap("no final newline")
		return b.Bytes()
	default:
		b.WriteByte('\n')
	}
	if g.chance(0.1) || last && g.chance(0.15) {
		g.trap("blank-looking line")
		b.WriteString(pick(g, blankish...) + "\n")
	}
	if g.chance(0.03) {
		g.trap("odd ledger line")
		b.WriteString(pick(g, oddLines...) + "\n")
	}
	return b.Bytes()
}
