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

	"github.com/plangate-gc/plangate-gc/gitignore"
	"github.com/plangate-gc/plangate-gc/jsonnum"
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
	if unsafe {
		root = safeNumbers(root)
	}
	placeholder := func(e *jsonschema.ValidationError) bool {
		return items > 0 && e.InstanceLocation == "/inventory/paths" && strings.HasSuffix(e.KeywordLocation, "/minItems")
	}
	return schemaProblems(schemaOnce().document.Validate(root), "", placeholder)
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
func safeNumbers(v any) any {
	switch t := v.(type) {
	case json.Number:
		n, _ := jsonnum.Parse(string(t))
		return json.Number(n.Safe())
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[k] = safeNumbers(x)
		}
		return m
	case []any:
		a := make([]any, len(t))
		for i, x := range t {
			a[i] = safeNumbers(x)
		}
		return a
	}
	return v
}

// itemCollector gates the streamed /inventory/paths elements.
type itemCollector struct {
	entries []skill.Entry
	probs   []Problem
}

func (c *itemCollector) add(i int, item any, unsafe bool) {
	if e, ok := entryOf(item); ok {
		c.entries = append(c.entries, e)
		return
	}
	if unsafe {
		item = safeNumbers(item)
	}
	at := "/inventory/paths/" + strconv.Itoa(i)
	probs := schemaProblems(schemaOnce().entry.Validate(item), at, nil)
	if len(probs) == 0 { // entryOf and the schema must agree; tests hold them to it
		probs = []Problem{{Code: CodeSchema, Pointer: at, Message: "entry rejected by the fast path but not by the schema"}}
	}
	c.probs = append(c.probs, probs...)
}

// maxSafe is 2^53−1, the bound of every integer field (SPEC A2).
const maxSafe = 1<<53 - 1

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

// buildInput converts a schema-valid document; only the excludes can still
// fail, because .gitignore well-formedness is beyond JSON Schema.
func buildInput(doc map[string]any, entries []skill.Entry) (skill.Input, []Problem) {
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
	}
	var probs []Problem
	for i, pat := range in.Excludes {
		if err := gitignore.Validate(pat); err != nil {
			probs = append(probs, Problem{Code: CodeMalformedGlob, Pointer: "/excludes/" + strconv.Itoa(i), Message: err.Error()})
		}
	}
	return in, probs
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
