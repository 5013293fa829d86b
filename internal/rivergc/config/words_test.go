//go:build linux

package config

import (
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/gitignore"
	"github.com/plangate-gc/plangate-gc/render"
)

// TestEveryPatternErrorIsWhole (SPEC B6): every message of the
// gc-cfg-pattern- family the catalog holds, worded for the pattern error
// of its code, is whole in both languages and names the pattern.
func TestEveryPatternErrorIsWhole(t *testing.T) {
	keys := render.Keys("gc-cfg-pattern-")
	if len(keys) == 0 {
		t.Fatal("no gc-cfg-pattern- messages in the catalog")
	}
	for _, key := range keys {
		pat := &gitignore.PatternError{Pattern: "pat", Code: gitignore.Code(strings.TrimPrefix(key, "gc-cfg-pattern-")), Offset: 3}
		for _, lang := range []render.Lang{render.Japanese, render.English} {
			if s := Words(pat, lang); strings.Contains(s, "%!") || !strings.Contains(s, `"pat"`) {
				t.Errorf("%s (%s): %q", key, lang, s)
			}
		}
	}
}
