package eval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/plangate-gc/plangate-gc/internal/gitignore"
	"github.com/plangate-gc/plangate-gc/skill"
)

// verdict is the part of one --json output line the invariants read.
type verdict struct {
	Status  string `json:"status"`
	Removed []struct {
		Path      string      `json:"path"`
		SizeBytes json.Number `json:"sizeBytes"`
		Reason    string      `json:"reason"`
	} `json:"removed"`
	Evidence []struct {
		Path   string `json:"path"`
		Reason string `json:"reason"`
	} `json:"evidence"`
	Counts *struct {
		Keep   int `json:"keep"`
		Remove int `json:"remove"`
	} `json:"counts"`
	Warnings []struct {
		Kind string `json:"kind"`
	} `json:"warnings"`
}

// decodeVerdicts parses the JSON Lines output of a stream.
func decodeVerdicts(out []byte) ([]verdict, error) {
	var vs []verdict
	for i, line := range bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n")) {
		var v verdict
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("output line %d is not JSON: %w", i+1, err)
		}
		vs = append(vs, v)
	}
	return vs, nil
}

// checkInvariants verifies, per judged document, the properties every
// correct judge has whatever the fixture expects (seed 001 評価指標).
func checkInvariants(input, jsonOut []byte) []string {
	vs, err := decodeVerdicts(jsonOut)
	if err != nil {
		return []string{err.Error()}
	}
	docs, _ := splitStream(input)
	var broken []string
	for i, v := range vs {
		if v.Status == "no_review" {
			continue
		}
		if i >= len(docs) {
			broken = append(broken, fmt.Sprintf("document %d: judged, but the input has no such document", i+1))
			continue
		}
		if docs[i].value == nil { // not faithfully decodable (see surrogateEscape)
			continue
		}
		for _, msg := range checkDocument(docs[i].value, v) {
			broken = append(broken, fmt.Sprintf("document %d: %s", i+1, msg))
		}
	}
	return broken
}

func checkDocument(doc map[string]any, v verdict) []string {
	var broken []string
	fail := func(format string, args ...any) { broken = append(broken, fmt.Sprintf(format, args...)) }
	facts := inputFacts(doc)
	for i, r := range v.Removed {
		if i > 0 && v.Removed[i-1].Path >= r.Path {
			fail("removed is not sorted and unique at %q", r.Path)
		}
		switch r.Reason {
		case "age", "count", "size":
		default:
			fail("removed %q has reason %q, not exactly one of age, count, size", r.Path, r.Reason)
		}
		nfc := norm.NFC.String(r.Path)
		switch {
		case !skill.Canonical(r.Path) || !facts.scope.InScope(nfc):
			fail("removed %q is not a canonical path of scope %s", r.Path, facts.scope)
		case facts.guarded(nfc):
			fail("removed %q is hard-guarded", r.Path)
		case facts.excludes != nil && facts.excludes.Match(nfc):
			fail("removed %q matches the excludes", r.Path)
		case !facts.files[r.Path]:
			fail("removed %q is not an in-scope file of the inventory", r.Path)
		}
	}
	if len(v.Evidence) != len(v.Removed) {
		fail("evidence has %d items for %d removed", len(v.Evidence), len(v.Removed))
	} else {
		for i, e := range v.Evidence {
			if e.Path != v.Removed[i].Path || e.Reason != v.Removed[i].Reason {
				fail("evidence %d (%s, %s) does not follow removed", i, e.Path, e.Reason)
			}
		}
	}
	if v.Counts != nil && v.Counts.Keep+v.Counts.Remove != len(facts.files) {
		fail("keep %d + remove %d != %d distinct in-scope files", v.Counts.Keep, v.Counts.Remove, len(facts.files))
	}
	if v.Counts != nil && v.Counts.Remove != len(v.Removed) {
		fail("counts.remove %d != %d removed", v.Counts.Remove, len(v.Removed))
	}
	for _, w := range v.Warnings {
		if !slices.Contains(skill.WarningKinds(), skill.WarningKind(w.Kind)) {
			fail("warning kind %q is not in the closed list of SPEC A9", w.Kind)
		}
	}
	return broken
}

// facts is what the invariants need to know about a judged input,
// computed from the input document alone.
type facts struct {
	scope    skill.Scope
	guards   []string
	excludes *gitignore.Matcher
	files    map[string]bool // distinct in-scope file paths
}

func (f facts) guarded(nfc string) bool {
	for _, g := range f.guards {
		if g != "" && (nfc == g || strings.HasPrefix(nfc, g+"/")) {
			return true
		}
	}
	return false
}

func inputFacts(doc map[string]any) facts {
	inv, _ := doc["inventory"].(map[string]any)
	scope, _ := inv["scope"].(string)
	f := facts{scope: skill.Scope(scope), files: map[string]bool{}}
	if src := f.scope.SingleSource(); src != "" {
		f.guards = append(f.guards, src)
	}
	for _, g := range stringsOf(doc["hardGuards"]) {
		g = norm.NFC.String(g)
		if t, ok := strings.CutSuffix(g, "/**"); ok {
			g = t
		} else {
			g = strings.TrimSuffix(g, "/")
		}
		f.guards = append(f.guards, g)
	}
	f.excludes, _ = gitignore.Compile(stringsOf(doc["excludes"]))
	entries, _ := inv["paths"].([]any)
	parents := map[string]bool{} // every proper prefix ending before a '/'
	for _, e := range entries {
		m, _ := e.(map[string]any)
		p, _ := m["path"].(string)
		for k := range len(p) {
			if p[k] == '/' {
				parents[p[:k]] = true
			}
		}
	}
	for _, e := range entries {
		m, _ := e.(map[string]any)
		p, _ := m["path"].(string)
		if m["type"] == "dir" || strings.HasSuffix(p, "/") || parents[p] || !skill.Canonical(p) {
			continue
		}
		if f.scope.InScope(norm.NFC.String(p)) {
			f.files[p] = true
		}
	}
	return f
}

func stringsOf(v any) []string {
	arr, _ := v.([]any)
	var out []string
	for _, s := range arr {
		if str, ok := s.(string); ok {
			out = append(out, str)
		}
	}
	return out
}
