//go:build linux

package command

import (
	"slices"

	"github.com/plangate-gc/plangate-gc/internal/report"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/skill"
)

// storeScopes are the scopes of River Review's own stores: the run
// records (.river/runs/), the memory index and the eval ledger (SPEC D).
// None is in the default selection, so a plain run reclaims nothing there.
var storeScopes = []skill.Scope{skill.ScopeRuns, skill.ScopeMemoryEntries, skill.ScopeEvalLedger}

// reachable judges, read-only (gc.Probe: no lock, no journal), the store scopes
// the run did not select, and returns what each would reclaim (SPEC B7,
// B9: the default run points at River Review's stores), on a dry-run and
// after --force alike, on disk and on a bucket. Each store is judged
// whole, whatever its size, as the store scope itself judges it (read
// once, within the store's memory bound; decision 233): the hint names
// every store's reclaimable bytes and entries. A store the root does not
// hold is an empty scope; scopes with nothing to reclaim, or that could
// not be judged, are left out.
func reachable(cfg gc.Config) []report.Reachable {
	var scopes []skill.Scope
	for _, s := range storeScopes {
		if !slices.Contains(cfg.Scopes, s) {
			scopes = append(scopes, s)
		}
	}
	if len(scopes) == 0 {
		return nil
	}
	probe := gc.Config{Root: cfg.Root, Tracked: cfg.Tracked, Scopes: scopes, Retention: cfg.Retention, PerScope: cfg.PerScope,
		Now: cfg.Now, KeepWithin: cfg.KeepWithin, Excludes: cfg.Excludes, Mode: gc.DryRun, Metadata: cfg.Metadata}
	out, err := gc.Probe(probe)
	if err != nil {
		return nil
	}
	var r []report.Reachable
	for _, so := range out.Scopes {
		if len(so.Removed) == 0 {
			continue
		}
		b := skill.Bytes{}.Add(so.StoreFreed) // a store: what --force's rewrite frees (decision 241)
		if so.Scope.Store() == "" {
			for _, d := range so.Removed {
				b = b.Add(d.SizeBytes)
			}
		}
		r = append(r, report.Reachable{Scope: so.Scope, Items: len(so.Removed), Bytes: b})
	}
	return r
}
