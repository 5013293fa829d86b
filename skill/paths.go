package skill

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Canonical reports whether p is a canonical repository-relative path
// (SPEC A4): valid UTF-8, no NUL or backslash, relative, no empty, "." or
// ".." segment and no trailing slash. Anything else is never judged.
func Canonical(p string) bool {
	if p == "" || p[0] == '/' {
		return false
	}
	ascii, seg := true, 0 // seg: start of the current segment
	for i := 0; ; i++ {
		for i < len(p) && plainByte[p[i]] {
			i++ // most bytes: one table load each
		}
		if i == len(p) || p[i] == '/' {
			if s := p[seg:i]; s == "" || s == "." || s == ".." {
				return false
			}
			if i == len(p) {
				return ascii || utf8.ValidString(p)
			}
			seg = i + 1
			continue
		}
		if c := p[i]; c == 0 || c == '\\' {
			return false
		}
		ascii = false // the one byte left: c >= utf8.RuneSelf
	}
}

// plainByte marks the bytes Canonical passes over without a look: all but
// '/', NUL, '\\' and the bytes of multi-byte UTF-8.
var plainByte = func() (t [256]bool) {
	for c := range utf8.RuneSelf {
		t[c] = c != '/' && c != 0 && c != '\\'
	}
	return t
}()

// InScope reports whether the NFC form of a canonical path belongs to the
// scope (SPEC A6).
func (s Scope) InScope(nfc string) bool {
	switch s {
	case ScopeMemory:
		return strings.HasPrefix(nfc, ".river/memory/")
	case ScopeEvals:
		return strings.HasPrefix(nfc, "artifacts/evals/")
	case ScopeReviewArtifacts:
		name, ok := strings.CutPrefix(nfc, "artifacts/")
		if !ok || strings.Contains(name, "/") {
			return false
		}
		return globAffix(name, "review-artifact", ".json") || globAffix(name, "review-", ".md")
	case ScopeTmp:
		return strings.HasPrefix(nfc, ".river/tmp/") || strings.HasPrefix(nfc, "artifacts/.tmp/")
	case ScopeRuns:
		return strings.HasPrefix(nfc, ".river/runs/")
	case ScopeMemoryEntries, ScopeEvalLedger:
		return strings.HasPrefix(nfc, s.Store()+"#")
	}
	return false
}

// globAffix matches name against the glob prefix + "*" + suffix.
func globAffix(name, prefix, suffix string) bool {
	return len(name) >= len(prefix)+len(suffix) && strings.HasPrefix(name, prefix) && strings.HasSuffix(name, suffix)
}

// SingleSource returns the scope's first built-in single source of truth,
// which is always hard-guarded, or "" for a scope that has none.
func (s Scope) SingleSource() string {
	if srcs := s.SingleSources(); len(srcs) > 0 {
		return srcs[0]
	}
	return ""
}

// SingleSources returns every built-in single source of the scope (SPEC
// A6): evals has two, the current run (latest) and the eval ledger, which
// no policy deletes whole (SPEC D4); tmp, runs and the entry scopes have
// none.
func (s Scope) SingleSources() []string {
	switch s {
	case ScopeMemory:
		return []string{MemoryIndex}
	case ScopeEvals:
		return []string{"artifacts/evals/latest", EvalLedger}
	case ScopeReviewArtifacts:
		return []string{"artifacts/review-artifact.schema.json"}
	}
	return nil
}

// guardPrefix turns a hard guard string into the path it protects: a
// trailing "/**" or "/" only says "and everything below" (SPEC A6).
func guardPrefix(g string) string {
	if t, ok := strings.CutSuffix(g, "/**"); ok {
		return t
	}
	return strings.TrimSuffix(g, "/")
}

// guards is a set of normalised hard-guard prefixes. A guard covers a path
// when it equals the path or one of its ancestor directories. Lookups probe
// the set only at the guards' own lengths where the path has a segment
// boundary, so neither many guards nor very long paths make it quadratic.
// The set is the guards' indexes sorted by guard, searched by halves: 4
// bytes a guard beside the prefixes, which are the caller's own strings
// where normalising changes none (normaliseGuards), where a map took 90
// bytes a guard, and an entry scope passes every live entry's name (an
// index of 300,000 elements without an id: 27 MB of map, 4.8 MB of
// sorted copy).
type guards struct {
	prefixes []string // as given, never reordered
	sorted   []int32  // indexes of distinct prefixes, in their byte order
	lengths  []int    // distinct guard lengths, ascending
}

// newGuards makes the set of prefixes; it keeps the slice, unchanged.
func newGuards(prefixes ...string) guards {
	gs := guards{prefixes: prefixes, sorted: make([]int32, len(prefixes))}
	for i := range gs.sorted {
		gs.sorted[i] = int32(i)
	}
	slices.SortFunc(gs.sorted, func(a, b int32) int { return strings.Compare(prefixes[a], prefixes[b]) })
	gs.sorted = slices.CompactFunc(gs.sorted, func(a, b int32) bool { return prefixes[a] == prefixes[b] })
	seen := map[int]bool{} // a few lengths, not one per guard
	for _, p := range prefixes {
		if !seen[len(p)] {
			seen[len(p)] = true
			gs.lengths = append(gs.lengths, len(p))
		}
	}
	slices.Sort(gs.lengths)
	return gs
}

// cover reports whether any guard protects path: the path itself or
// anything below a guarded directory.
func (gs guards) cover(path string) bool {
	for _, n := range gs.lengths {
		if n > len(path) {
			return false
		}
		if n < len(path) && path[n] != '/' {
			continue
		}
		if _, ok := slices.BinarySearchFunc(gs.sorted, path[:n], func(k int32, t string) int { return strings.Compare(gs.prefixes[k], t) }); ok {
			return true
		}
	}
	return false
}

// Dirs returns the root-relative directories river gc scans for the scope
// (SPEC Part B), or nil for an unknown scope: review-artifacts is the one
// non-recursive listing (of artifacts/), the others are walked.
func (s Scope) Dirs() []string {
	switch s {
	case ScopeMemory:
		return []string{".river/memory"}
	case ScopeEvals:
		return []string{"artifacts/evals"}
	case ScopeReviewArtifacts:
		return []string{"artifacts"}
	case ScopeTmp:
		return []string{".river/tmp", "artifacts/.tmp"}
	case ScopeRuns:
		return []string{".river/runs"}
	}
	return nil
}
