package skill

import (
	"slices"
	"testing"
)

// TestDerivedGuardsQuietOnlyTheOverlapWarnings: a guard the caller derived
// itself (derivedGuards) keeps its path exactly as a hard guard does but
// draws no guard-exclude or guard-retention warning; a derived guard that
// is not also a hard guard guards nothing.
func TestDerivedGuardsQuietOnlyTheOverlapWarnings(t *testing.T) {
	m := ".river/memory/"
	in := input(ScopeMemory, "90", "1000", "500",
		entry(m+"index.json", 1, now-200*day), entry(m+"keep/a.json", 1, now-200*day), entry(m+"b.json", 1, now-200*day))
	in.HardGuards = []string{m + "index.json", m + "keep/**"}
	in.Excludes = []string{"keep/"}
	kinds := func(r Result) []WarningKind {
		var ks []WarningKind
		for _, w := range r.Warnings {
			ks = append(ks, w.Kind)
		}
		return ks
	}
	loud, err := Judge(in)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(kinds(loud), WarnGuardRetention) || !slices.Contains(kinds(loud), WarnGuardExclude) {
		t.Fatalf("without derivedGuards the overlaps warn: %v", kinds(loud))
	}
	in.DerivedGuards = slices.Clone(in.HardGuards)
	quiet, err := Judge(in)
	if err != nil {
		t.Fatal(err)
	}
	if ks := kinds(quiet); slices.Contains(ks, WarnGuardRetention) || slices.Contains(ks, WarnGuardExclude) {
		t.Errorf("derived guards still warn: %v", ks)
	}
	if verdicts(quiet) != verdicts(loud) || verdicts(quiet) != m+"b.json=age" {
		t.Errorf("derived guards changed the verdicts: %q vs %q", verdicts(quiet), verdicts(loud))
	}
	in.HardGuards, in.DerivedGuards = []string{m + "index.json"}, []string{m + "index.json", m + "b.json"}
	alone, err := Judge(in)
	if err != nil {
		t.Fatal(err)
	}
	if verdicts(alone) != m+"b.json=age" { // keep/a.json is excluded
		t.Errorf("a derived guard alone guarded something: %q", verdicts(alone))
	}
}
