package gate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/schemas"
)

// TestShapesFollowTheSchema derives the shape of every position from the
// embedded input schema and holds shapeAt to it, so that a property added
// to the schema cannot be silently discarded (never validated) by the gate.
func TestShapesFollowTheSchema(t *testing.T) {
	var schema map[string]any
	if err := json.Unmarshal(schemas.Input, &schema); err != nil {
		t.Fatal(err)
	}
	defs, _ := schema["$defs"].(map[string]any)
	resolve := func(s map[string]any) map[string]any {
		if ref, ok := s["$ref"].(string); ok {
			return defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
		}
		return s
	}
	checked := 0
	var walk func(path []seg, s map[string]any)
	walk = func(path []seg, s map[string]any) {
		s = resolve(s)
		want := shapeScalar
		switch s["type"] {
		case "object":
			want = shapeObject
		case "array":
			want = shapeArray
		}
		if got := shapeAt(path); got != want {
			t.Errorf("%s: shapeAt %d, the schema says %d", pointer(path), got, want)
		}
		checked++
		props, _ := s["properties"].(map[string]any)
		for name, sub := range props {
			walk(append(append([]seg{}, path...), seg{key: name, index: -1}), sub.(map[string]any))
		}
		if items, ok := s["items"].(map[string]any); ok {
			walk(append(append([]seg{}, path...), seg{index: 0}), items)
		}
		if want != shapeScalar {
			unknown := append(append([]seg{}, path...), seg{key: "x-unknown", index: -1})
			if shapeAt(unknown) != shapeNone {
				t.Errorf("%s: an unknown key is looked at", pointer(unknown))
			}
		}
	}
	walk(nil, schema)
	if checked < 15 {
		t.Fatalf("only %d positions in the schema", checked)
	}
}
