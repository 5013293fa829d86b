package jsonesc

import (
	"encoding/json"
	"testing"
)

// TestAppendASCIIIsValidJSON: every ASCII byte, alone in a string, reads
// back as itself.
func TestAppendASCIIIsValidJSON(t *testing.T) {
	for c := range byte(0x80) {
		b := append(AppendASCII([]byte{'"'}, c), '"')
		var s string
		if err := json.Unmarshal(b, &s); err != nil || s != string(rune(c)) {
			t.Errorf("%#x: %s reads back as %q, %v", c, b, s, err)
		}
	}
}
