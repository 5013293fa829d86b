package eval

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"strings"
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

// splitStream cuts an input stream into documents by their brackets and
// strings, without limits on depth (encoding/json stops at 10,000 levels,
// the gate does not); each document is decoded when it faithfully can be.
// What cannot start a document is returned as the raw tail.
func splitStream(input []byte) (docs []document, tail []byte) {
	i := 0
	for {
		for i < len(input) && isSpace(input[i]) {
			i++
		}
		if i == len(input) {
			return docs, nil
		}
		end, ok := documentEnd(input, i)
		if !ok {
			return docs, input[i:]
		}
		d := document{raw: input[i:end]}
		var v map[string]any
		dec := json.NewDecoder(bytes.NewReader(d.raw))
		dec.UseNumber()
		if !surrogateEscape.Match(d.raw) && dec.Decode(&v) == nil {
			d.value = v
		}
		docs = append(docs, d)
		i = end
	}
}

// documentEnd returns the end of the JSON value starting at input[i].
func documentEnd(input []byte, i int) (int, bool) {
	switch input[i] {
	case '}', ']', ',', ':':
		return 0, false
	case '{', '[', '"':
	default: // a scalar runs to the next space or structural byte
		k := i
		for k < len(input) && !isSpace(input[k]) && !strings.ContainsRune("{}[]\",:", rune(input[k])) {
			k++
		}
		return k, true
	}
	depth, inString := 0, false
	for k := i; k < len(input); k++ {
		c := input[k]
		switch {
		case inString && c == '\\':
			k++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		}
		if depth == 0 && !inString {
			return k + 1, true
		}
	}
	return 0, false
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

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
