package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"regexp"
)

// surrogateEscape finds \uD800–\uDFFF escapes: encoding/json decodes a
// lone one to U+FFFD, which would turn a non-canonical path into a valid
// one, so such documents are neither re-encoded nor checked from a decoded
// value. (It also matches valid pairs; being conservative costs nothing.)
var surrogateEscape = regexp.MustCompile(`\\u[dD][89a-fA-F][0-9a-fA-F]{2}`)

// document is one JSON document of an input stream: its raw bytes and,
// when it could be decoded faithfully, its value.
type document struct {
	raw   []byte
	value map[string]any
}

// splitStream cuts an input stream into documents as a JSON decoder sees
// them; whatever follows a syntax error is kept as one raw tail.
func splitStream(input []byte) (docs []document, tail []byte) {
	dec := json.NewDecoder(bytes.NewReader(input))
	dec.UseNumber()
	for {
		start := dec.InputOffset()
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return docs, input[start:]
		}
		d := document{raw: raw}
		vd := json.NewDecoder(bytes.NewReader(raw))
		vd.UseNumber()
		var v map[string]any
		if !surrogateEscape.Match(raw) && vd.Decode(&v) == nil {
			d.value = v
		}
		docs = append(docs, d)
	}
}

// permute returns the stream with inventory.paths and hardGuards of every
// judged document shuffled (seeded); excludes keep their order, which has
// meaning. judged[i] says whether document i passed the gate: a document
// that did not is copied verbatim, since re-encoding could heal it.
func permute(input []byte, judged []bool, seed uint64) []byte {
	docs, tail := splitStream(input)
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	var out bytes.Buffer
	for i, d := range docs {
		if d.value == nil || i >= len(judged) || !judged[i] {
			out.Write(d.raw)
			out.WriteByte('\n')
			continue
		}
		if inv, ok := d.value["inventory"].(map[string]any); ok {
			shuffle(rng, inv["paths"])
		}
		shuffle(rng, d.value["hardGuards"])
		enc := json.NewEncoder(&out)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(d.value); err != nil {
			out.Write(d.raw)
			out.WriteByte('\n')
		}
	}
	out.Write(tail)
	return out.Bytes()
}

func shuffle(rng *rand.Rand, v any) {
	if arr, ok := v.([]any); ok {
		rng.Shuffle(len(arr), func(i, j int) { arr[i], arr[j] = arr[j], arr[i] })
	}
}
