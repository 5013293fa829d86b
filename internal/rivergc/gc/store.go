//go:build linux

package gc

import (
	"errors"
	"os"
	"slices"

	"github.com/plangate-gc/plangate-gc/internal/backend/local/rewrite"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
	"github.com/plangate-gc/plangate-gc/internal/prefault"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/scan"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/stores"
	"github.com/plangate-gc/plangate-gc/skill"
)

// storeRead is an entry scope's single source as it was read: the scope
// and the identity the rewrite checks (its entries and bytes are the
// scope's stores.Index).
type storeRead struct {
	scope skill.Scope
	ident rewrite.Ident
}

// rewriteJob is one store to rewrite without the removed entries, with
// the scope it serves and the identity it was read with.
type rewriteJob struct {
	stores.Job
	storeRead
}

// scanStore reads the single source of an entry scope and builds its
// engine input (SPEC D2–D4): one entry per name, the live entries and the
// entries a kept one refers to as hard guards. The guards are closed
// under references by judging until no removed entry is referred to by a
// kept one. A missing store is an empty scope; a tracked one is kept
// whole (its entries count as tracked).
func scanStore(cfg Config, scope skill.Scope, guards []string) (scopeScan, *storeRead) {
	rel := scope.Store()
	sc := scopeScan{input: skill.Input{Scope: scope, Retention: cfg.retentionFor(scope), Now: cfg.Now,
		Excludes: cfg.Excludes, HardGuards: slices.Clone(guards)}}
	before := heapInUse()
	data, ident, err := cfg.Root.tree.readStore(cfg, rel)
	if errors.Is(err, os.ErrNotExist) {
		return sc, nil
	}
	if err != nil {
		sc.errs = append(sc.errs, fserr.New(fserr.OpReadStore, rel, err))
		return sc, nil
	}
	st, err := stores.Parse(scope, rel, data, cfg.Now)
	if err != nil {
		sc.errs = append(sc.errs, fserr.New(fserr.OpReadStore, rel, fserr.ErrNotStore))
		return sc, nil
	}
	limitStoreMemory(before, st.Held(), len(data), len(st.Entries))
	sc.input.Excludes = stores.Patterns(cfg.Excludes, rel)
	if stores.Excluded(cfg.Excludes, rel) {
		sc.input.Excludes = append(slices.Clone(sc.input.Excludes), stores.AllEntries(rel))
	}
	tracked := isTracked(cfg, rel)
	mtime := floorSeconds(ident.MtimeNs)
	// The entries in name order (the engine's and the merge walk's order);
	// their scan records are made on demand (scopeScan.file), not held.
	sc.entries = stores.NewIndex(st, data, mtime)
	sc.young = cfg.keepWithinRule(nil, sc.input.Excludes)
	if !tracked {
		sc.input.Paths = make([]skill.Entry, 0, len(st.Entries))
		prefault.Slice(sc.input.Paths)
	}
	for k := range sc.entries.Len() {
		f := sc.entries.File(k)
		if f.TimestampSource == scan.SourceMetadata {
			sc.sources.Metadata++
		} else {
			sc.sources.Mtime++
		}
		if tracked {
			sc.tracked++
			continue
		}
		if !sc.entries.Live(k) && sc.young.protects(f.Path, f.Timestamp) {
			sc.fresh++
			continue
		}
		// A live entry is guarded by its flag, not by its name in the
		// hard guards (20 bytes an entry).
		sc.input.Paths = append(sc.input.Paths, skill.Entry{Path: f.Path, SizeBytes: uint64(f.Size), Mtime: f.Timestamp, MtimeKnown: true,
			Guarded: sc.entries.Live(k)})
	}
	if first, n := st.Unreadable(); n > 0 {
		sc.extra = append(sc.extra, Warning{Kind: WarnUnreadableEntry, Scope: scope, Path: first, N: n})
	}
	if first, n := st.Undecided(); n > 0 {
		sc.extra = append(sc.extra, Warning{Kind: WarnUndecidedEntry, Scope: scope, Path: first, N: n})
	}
	if tracked || len(sc.input.Paths) == 0 {
		return sc, nil
	}
	sc.input.HardGuards = st.CloseGuards(sc.input)
	return sc, &storeRead{scope: scope, ident: ident}
}

// floorSeconds turns nanoseconds since the epoch into whole seconds,
// floored.
func floorSeconds(ns int64) int64 {
	s := ns / 1e9
	if ns < 0 && ns%1e9 != 0 {
		s--
	}
	return s
}

// keepStore moves the removals of an entry scope whose store was not
// rewritten back to kept.
func (o *Outcome) keepStore(scope skill.Scope) {
	for i := range o.Scopes {
		if s := &o.Scopes[i]; s.Scope == scope {
			for _, d := range s.Removed {
				s.Kept++
				s.KeptBytes = s.KeptBytes.Add(d.SizeBytes)
			}
			s.Removed, s.Stamps, s.at, s.StoreFreed = s.Removed[:0], s.Stamps[:0], s.at[:0], 0
		}
	}
}
