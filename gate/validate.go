package gate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/plangate-gc/plangate-gc/internal/gitignore"
	"github.com/plangate-gc/plangate-gc/internal/jsonnum"
	"github.com/plangate-gc/plangate-gc/internal/prefault"
	"github.com/plangate-gc/plangate-gc/schemas"
	"github.com/plangate-gc/plangate-gc/skill"
)

// compiled holds the input schema and its entry subschema, compiled once.
type compiled struct {
	document, entry *jsonschema.Schema
}

var schemaOnce = sync.OnceValue(func() compiled {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if err := c.AddResource(schemas.InputID, bytes.NewReader(schemas.Input)); err != nil {
		panic(fmt.Sprintf("gate: embedded schema: %v", err))
	}
	return compiled{
		document: c.MustCompile(schemas.InputID),
		entry:    c.MustCompile(schemas.InputID + "#/$defs/entry"),
	}
})

// validateDocument checks the document, whose /inventory/paths array was
// streamed away and replaced by an empty placeholder, against the schema.
// The placeholder's minItems failure is dropped when the real array had
// elements; the elements themselves are checked one by one (itemCollector).
func validateDocument(root any, unsafe bool, items int) []Problem {
	probs := excludeProblems(root)
	restore := func(s string) string { return s }
	if unsafe {
		root, restore = safeNumbers(root)
	}
	placeholder := func(e *jsonschema.ValidationError) bool {
		return items > 0 && e.InstanceLocation == "/inventory/paths" && strings.HasSuffix(e.KeywordLocation, "/minItems")
	}
	for _, p := range schemaProblems(schemaOnce().document.Validate(root), "", placeholder) {
		p.Message = restore(p.Message)
		probs = append(probs, p)
	}
	return probs
}

// excludeProblems checks every string of /excludes for .gitignore
// well-formedness (SPEC A5), which JSON Schema cannot express; it runs
// whatever else is wrong with the document, so all reasons are reported.
func excludeProblems(root any) []Problem {
	doc, _ := root.(map[string]any)
	list, _ := doc["excludes"].([]any)
	var probs []Problem
	for i, v := range list {
		if pat, ok := v.(string); ok {
			if err := gitignore.Validate(pat); err != nil {
				probs = append(probs, Problem{Code: CodeMalformedGlob, Pointer: "/excludes/" + strconv.Itoa(i), Message: err.Error()})
			}
		}
	}
	return probs
}

// schemaProblems flattens a jsonschema error tree into its leaves; the
// tree's order varies between runs, newError sorts the leaves.
func schemaProblems(err error, prefix string, skip func(*jsonschema.ValidationError) bool) []Problem {
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Problem{{Code: CodeSchema, Pointer: prefix, Message: err.Error()}}
	}
	var out []Problem
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			if skip != nil && skip(e) {
				return
			}
			out = append(out, Problem{Code: CodeSchema, Pointer: prefix + e.InstanceLocation, Message: e.Message})
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return out
}

// safeNumbers copies a value tree with every number replaced by its
// jsonnum.Safe form, so math/big never sees a literal like 1e999999999.
// Each substitute is made unique within the tree, and restore maps a
// validator message ("… but found X") back to the input's literal (SPEC
// A3), shortened to maxEcho bytes.
func safeNumbers(v any) (safe any, restore func(string) string) {
	var pairs []string
	var walk func(any) any
	walk = func(v any) any {
		switch t := v.(type) {
		case json.Number:
			n, _ := jsonnum.Parse(string(t))
			if s := n.Safe(); s != n.Literal {
				s = distinct(s, len(pairs)/2)
				pairs = append(pairs, "found "+s, "found "+shorten(n.Literal))
				return json.Number(s)
			}
			return t
		case map[string]any:
			m := make(map[string]any, len(t))
			for k, x := range t {
				m[k] = walk(x)
			}
			return m
		case []any:
			a := make([]any, len(t))
			for i, x := range t {
				a[i] = walk(x)
			}
			return a
		}
		return v
	}
	safe = walk(v)
	return safe, strings.NewReplacer(pairs...).Replace
}

// distinct varies the k-th substitute without changing what the schema
// can tell about it (sign, integrality, which side of every bound):
// 1e401 → 2e401, 0.5 → 0.55, 12.5 → 12.55.
func distinct(safe string, k int) string {
	if k == 0 {
		return safe
	}
	sign, body := "", safe
	if strings.HasPrefix(body, "-") {
		sign, body = "-", body[1:]
	}
	if body == "1e401" {
		return sign + strconv.Itoa(k+1) + "e401"
	}
	if whole, ok := strings.CutSuffix(body, ".5"); ok {
		return sign + whole + "." + strings.Repeat("5", k+1)
	}
	return safe // an exact integer: its own value tells it apart
}

// maxEcho bounds a number literal quoted in a message.
const maxEcho = 64

func shorten(lit string) string {
	if len(lit) <= maxEcho {
		return lit
	}
	return lit[:maxEcho/2] + "…" + lit[len(lit)-maxEcho/2:]
}

// itemCollector gates the streamed /inventory/paths elements.
type itemCollector struct {
	// Entries are collected in blocks of at most maxBlock, the first of
	// 16, each next one twice the last, and copied once into one slice of
	// the exact length at the end: a slice grown by append copies a
	// million entries about 25 times over (205 MB allocated for 40 MB)
	// and holds the last two copies at once.
	blocks [][]skill.Entry
	cur    []skill.Entry
	probs  []Problem
	bad    int // elements that failed
}

// maxBlock is the most entries one block of the collector holds.
const maxBlock = 8192

// addEntry takes an element the byte-level fast path already converted.
func (c *itemCollector) addEntry(e skill.Entry) {
	if len(c.cur) == cap(c.cur) {
		size := 16
		if c.cur != nil {
			c.blocks = append(c.blocks, c.cur)
			size = min(2*cap(c.cur), maxBlock)
		}
		c.cur = make([]skill.Entry, 0, size)
		prefault.Slice(c.cur)
	}
	c.cur = append(c.cur, e)
}

// entries is every entry collected, in input order, in one slice.
func (c *itemCollector) entries() []skill.Entry {
	if len(c.blocks) == 0 {
		return c.cur
	}
	n := len(c.cur)
	for _, b := range c.blocks {
		n += len(b)
	}
	all := make([]skill.Entry, 0, n)
	prefault.Slice(all)
	for _, b := range c.blocks {
		all = append(all, b...)
	}
	return append(all, c.cur...)
}

func (c *itemCollector) add(i int, item any, unsafe bool) {
	if e, ok := entryOf(item); ok {
		c.addEntry(e)
		return
	}
	// Past maxProblems failed elements none of them can be among the
	// reported (the first by pointer), so they are only counted: a
	// million bad elements cost no more than a hundred.
	if c.bad++; c.bad > maxProblems {
		return
	}
	restore := func(s string) string { return s }
	if unsafe {
		item, restore = safeNumbers(item)
	}
	at := "/inventory/paths/" + strconv.Itoa(i)
	probs := schemaProblems(schemaOnce().entry.Validate(item), at, nil)
	for k := range probs {
		probs[k].Message = restore(probs[k].Message)
	}
	if len(probs) == 0 { // entryOf and the schema must agree; tests hold them to it
		probs = []Problem{{Code: CodeSchema, Pointer: at, Message: "entry rejected by the fast path but not by the schema"}}
	}
	c.probs = append(c.probs, probs...)
}

// maxSafe is the bound of every integer field (SPEC A2).
const maxSafe = skill.MaxSafe

// entryOf is the fast path of the entry subschema: it accepts an element
// only when the schema would, and converts it in the same pass. Anything it
// declines goes to the schema, which has the last word and the messages.
func entryOf(item any) (skill.Entry, bool) {
	m, ok := item.(map[string]any)
	if !ok {
		return skill.Entry{}, false
	}
	path, ok := m["path"].(string)
	if !ok || path == "" {
		return skill.Entry{}, false
	}
	size, ok := safeInt(m["sizeBytes"])
	if !ok || size < 0 {
		return skill.Entry{}, false
	}
	e := skill.Entry{Path: path, SizeBytes: uint64(size)}
	mt, present := m["mtimeEpoch"]
	if !present {
		return skill.Entry{}, false
	}
	if mt != nil {
		if e.Mtime, ok = safeInt(mt); !ok {
			return skill.Entry{}, false
		}
		e.MtimeKnown = true
	}
	if t, present := m["type"]; present {
		switch t {
		case "dir":
			e.Dir = true
		case "file":
		default:
			return skill.Entry{}, false
		}
	}
	return e, true
}

// safeInt accepts a JSON integer within ±(2^53−1), in any notation.
func safeInt(v any) (int64, bool) {
	lit, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	n, ok := jsonnum.Parse(string(lit))
	if !ok {
		return 0, false
	}
	i, ok := n.Int64()
	if !ok || i > maxSafe || i < -maxSafe {
		return 0, false
	}
	return i, true
}

// buildInput converts a document that passed the gate.
func buildInput(doc map[string]any, entries []skill.Entry) skill.Input {
	inv := doc["inventory"].(map[string]any)
	ret := doc["retention"].(map[string]any)
	now, _ := safeInt(doc["now"])
	in := skill.Input{
		Scope: skill.Scope(inv["scope"].(string)),
		Paths: entries,
		Retention: skill.Retention{
			Days:       jsonnum.MustParse(string(ret["days"].(json.Number))),
			MaxEntries: jsonnum.MustParse(string(ret["maxEntries"].(json.Number))),
			MaxSizeMb:  jsonnum.MustParse(string(ret["maxSizeMb"].(json.Number))),
		},
		Now:        now,
		HardGuards: stringList(doc["hardGuards"]),
		Excludes:   stringList(doc["excludes"]),
		// Optional (decision 62): guards the caller derived itself.
		DerivedGuards: stringList(doc["derivedGuards"]),
	}
	return in
}

// stringList converts an optional schema-valid array of strings.
func stringList(v any) []string {
	arr, _ := v.([]any)
	if arr == nil {
		return nil
	}
	out := make([]string, len(arr))
	for i, s := range arr {
		out[i] = s.(string)
	}
	return out
}

// parseNumber is jsonnum.Parse; named here for the parser's use.
var parseNumber = jsonnum.Parse
