//go:build linux

package gc

import (
	"slices"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/rivergc/scan"
	"github.com/plangate-gc/plangate-gc/skill"
)

// TestRemovedMergesScopesByPath: removed[] is every scope's removals in
// one path order, although tmp's two directories put its removals on
// both sides of evals'; each removal keeps its scope and stamp.
func TestRemovedMergesScopesByPath(t *testing.T) {
	scope := func(s skill.Scope, paths ...string) ScopeOutcome {
		so := ScopeOutcome{Scope: s}
		for i, p := range paths {
			so.Removed = append(so.Removed, skill.Decision{Path: p, Reason: skill.ReasonAge})
			so.Stamps = append(so.Stamps, Stamp{Timestamp: int64(i), Source: scan.SourceRun})
		}
		return so
	}
	o := Outcome{Scopes: []ScopeOutcome{
		scope(skill.ScopeMemory, ".river/memory/a", ".river/memory/b"),
		scope(skill.ScopeEvals, "artifacts/evals/r/x", "artifacts/evals/s"),
		scope(skill.ScopeReviewArtifacts),
		scope(skill.ScopeTmp, ".river/tmp/j", "artifacts/.tmp/k", "artifacts/.tmp/l"),
	}}
	var got []string
	for rm := range o.Removed() {
		got = append(got, string(rm.Scope)+" "+rm.Path)
		if rm.Path == "artifacts/.tmp/l" && (rm.Timestamp != 2 || rm.Source != scan.SourceRun) {
			t.Errorf("stamp of %s: %d %s", rm.Path, rm.Timestamp, rm.Source)
		}
	}
	want := []string{"memory .river/memory/a", "memory .river/memory/b", "tmp .river/tmp/j", "tmp artifacts/.tmp/k",
		"tmp artifacts/.tmp/l", "evals artifacts/evals/r/x", "evals artifacts/evals/s"}
	if !slices.Equal(got, want) || o.RemovedCount() != len(want) {
		t.Errorf("removed[] = %q (count %d), want %q", got, o.RemovedCount(), want)
	}
	for range o.Removed() {
		break // stopping early is allowed
	}
}
