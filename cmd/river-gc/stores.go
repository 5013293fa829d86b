//go:build linux

package main

import (
	"context"
	"slices"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/report"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/skill"
)

// storeScopes are the scopes of River Review's own stores, each with the
// path that says the root holds it: the run records (.river/runs/), the
// memory index and the eval ledger (SPEC D). None is in the default
// selection, so a plain run reclaims nothing there.
var storeScopes = []struct {
	scope skill.Scope
	path  string
}{{skill.ScopeRuns, ".river/runs"}, {skill.ScopeMemoryEntries, skill.MemoryIndex}, {skill.ScopeEvalLedger, skill.EvalLedger}}

// hintBound is the largest store file reachable judges for its hint
// (1 MiB: a few thousand entries, judged in milliseconds); a variable so
// that tests can lower it.
var hintBound int64 = 1 << 20

// reachable judges, read-only (a dry-run of their own), the store scopes
// the run did not select whose store the root holds, and returns what
// each would reclaim (SPEC B7: the default run points at River Review's
// stores). Scopes with nothing to reclaim, or that could not be judged,
// are left out; so is everything with --force (the hint belongs to the
// dry-run that comes first).
//
// A store file larger than hintBound is not judged for the hint (that
// would cost what judging the store costs, decision 224): it is named
// with its size and the flag that judges it.
func reachable(ctx context.Context, cfg gc.Config) []report.Reachable {
	if cfg.Mode != gc.DryRun {
		return nil
	}
	var scopes []skill.Scope
	var big []report.Reachable
	for _, s := range storeScopes {
		var st unix.Stat_t
		if slices.Contains(cfg.Scopes, s.scope) || unix.Fstatat(cfg.Root.FD, s.path, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
			continue
		}
		if st.Mode&unix.S_IFMT == unix.S_IFREG && st.Size > hintBound {
			big = append(big, report.Reachable{Scope: s.scope, Bytes: skill.Bytes{}.Add(uint64(st.Size)), Unjudged: true})
			continue
		}
		scopes = append(scopes, s.scope)
	}
	if len(scopes) == 0 {
		return big
	}
	probe := gc.Config{Root: cfg.Root, Tracked: cfg.Tracked, Scopes: scopes, Retention: cfg.Retention, PerScope: cfg.PerScope,
		Now: cfg.Now, Excludes: cfg.Excludes, Mode: gc.DryRun, Metadata: cfg.Metadata}
	out, err := gc.Run(ctx, probe)
	if err != nil {
		return big
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
	return append(r, big...)
}
