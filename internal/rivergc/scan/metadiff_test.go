//go:build linux

package scan

import (
	"encoding/json"
	"errors"
	"math/rand"
	"strings"
	"testing"
)

// metaToks are the pieces genJSON builds documents from: structure,
// whitespace json.Valid refuses or accepts, the recognised keys (also
// escaped or in the wrong case), timestamps, and strings and numbers at
// the edges of the grammar.
var metaToks = []string{"{", "}", "[", "]", ",", ":", " ", "\t", "\n", "\r", "\f", "\v", "\x00", "\u00a0", "\ufeff",
	`"timestamp"`, `"metadata"`, `"updatedAt"`, `"createdAt"`, `"generatedAt"`, `"time\u0073tamp"`, `"Timestamp"`,
	`"2021-01-01T00:00:00Z"`, `"2021-01-01T00:00:00.5+01:00"`, `"x"`, `""`, `"\u12"`, `"\uD800"`, `"\ud83d\ude00"`, "\"\xff\"", "\"\x7f\"", "\"\x1f\"",
	`"\/"`, `"\'"`, `"\`, `\"`, "0", "-", "-0", "01", "1.", "1.5", ".5", "1e", "1e+", "1E-2", "+1", "1e5", "-01", "true", "false", "null", "tru", "nul", "NaN", "Infinity", "t", "n", "f"}

// genJSON returns a document that is often almost JSON: objects with
// recognised keys, arrays, and runs of loose tokens.
func genJSON(r *rand.Rand, depth int) string {
	if depth > 4 || r.Intn(5) == 0 {
		return metaToks[r.Intn(len(metaToks))]
	}
	switch r.Intn(4) {
	case 0:
		var b strings.Builder
		b.WriteString("{")
		n := r.Intn(4)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(metaToks[15+r.Intn(7)])
			b.WriteString(":")
			b.WriteString(genJSON(r, depth+1))
		}
		b.WriteString("}")
		return b.String()
	case 1:
		var b strings.Builder
		b.WriteString("[")
		n := r.Intn(4)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(genJSON(r, depth+1))
		}
		b.WriteString("]")
		return b.String()
	default:
		var b strings.Builder
		n := 1 + r.Intn(6)
		for i := 0; i < n; i++ {
			if r.Intn(3) == 0 {
				b.WriteString(genJSON(r, depth+1))
			} else {
				b.WriteString(metaToks[r.Intn(len(metaToks))])
			}
		}
		return b.String()
	}
}

// TestMetadataValidLikeJSONValid: on 50,000 generated near-JSON documents
// (a fixed seed), parseMetadata calls a document invalid exactly when
// json.Valid does. FuzzParseMetadata explores further.
func TestMetadataValidLikeJSONValid(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	for n := 0; n < 50000; n++ {
		s := genJSON(r, 0)
		if r.Intn(2) == 0 {
			s = "{" + `"timestamp":"2021-01-01T00:00:00Z",` + s[min(1, len(s)):]
		}
		data := []byte(s)
		_, err := parseMetadata(data)
		valid := json.Valid(data)
		if errors.Is(err, errInvalid) == valid {
			t.Fatalf("%q: err %v, json.Valid %v", data, err, valid)
		}
	}
}
