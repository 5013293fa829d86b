//go:build linux

package gc

import (
	"errors"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/plangate-gc/plangate-gc/internal/backend/local/rewrite"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
	"github.com/plangate-gc/plangate-gc/internal/gitignore"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/entries"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/scan"
	"github.com/plangate-gc/plangate-gc/skill"
)

// EntryRef says which entry of a single source a name of an entry scope
// stands for (SPEC D2): the store, and the memory entry's id or the
// ledger line's number and timestamp text.
type EntryRef struct {
	Store     string
	ID        string
	Line      int
	Timestamp string
}

// EntryIndex says what each name of an entry scope stands for (SPEC D2):
// the entries in name order, four bytes an entry rather than a map of
// records.
type EntryIndex struct {
	store entries.Store
	data  []byte
	order []int32 // indexes into store.Entries, by name
	mtime int64   // the store's mtime: the timestamp of an entry without one
}

func newEntryIndex(st entries.Store, data []byte, mtime int64) *EntryIndex {
	x := &EntryIndex{store: st, data: data, mtime: mtime}
	if x.order = lineOrder(st.Entries); x.order != nil {
		return x
	}
	x.order = make([]int32, len(st.Entries))
	for i := range x.order {
		x.order[i] = int32(i)
	}
	es := st.Entries
	slices.SortFunc(x.order, func(a, b int32) int {
		if c := strings.Compare(es[a].Name, es[b].Name); c != 0 {
			return c
		}
		return int(a - b) // file order among equal names: a stable result
	})
	return x
}

// lineOrder returns the ledger's lines in name order without comparing
// names, or nil when es is not a ledger's lines (numbered, increasing) or
// its numbers are sparse. The names are the store's path, "#" and the
// line number, so their byte order is that of the numbers as decimal
// strings: a preorder walk of the tree of decimal prefixes (1, 10, 100,
// …, 101, …, 11, …, 2, …) visits them in it. At a million lines it takes
// a hundredth of the comparison sort's time.
func lineOrder(es []entries.Entry) []int32 {
	if len(es) == 0 || es[0].Line() <= 0 {
		return nil
	}
	last := es[len(es)-1].Line()
	if last > 4*len(es)+64 {
		return nil // mostly blank lines: the walk would visit them all, and the map of lines is 4 bytes a line
	}
	at := make([]int32, last+1) // line → 1 + its entry's index (0: blank)
	prev := 0
	for i, e := range es {
		line := e.Line()
		if line <= prev {
			return nil
		}
		at[line], prev = int32(i+1), line
	}
	order := make([]int32, 0, len(es))
	var walk func(p int)
	walk = func(p int) {
		if at[p] > 0 {
			order = append(order, at[p]-1)
		}
		for c := p * 10; c <= p*10+9 && c <= last; c++ {
			walk(c)
		}
	}
	for p := 1; p <= 9 && p <= last; p++ {
		walk(p)
	}
	return order
}

// file is the scan record of the k-th entry in name order: its name, its
// size and its own timestamp (else the store's mtime).
func (x *EntryIndex) file(k int) scan.File {
	e := &x.store.Entries[x.order[k]]
	f := scan.File{Path: e.Name, Size: int64(e.Size()), Timestamp: x.mtime, TimestampSource: scan.SourceMtime}
	if e.Stamped {
		f.Timestamp, f.TimestampSource = e.Timestamp, scan.SourceMetadata
	}
	return f
}

// live reports whether the k-th entry in name order is live (a guard of
// its own; SPEC D3).
func (x *EntryIndex) live(k int) bool { return x.store.Entries[x.order[k]].Live }

// ref says what the k-th entry in name order stands for. The merge walk
// that pairs the engine's removals with the entries keeps each one's
// place (ScopeOutcome.at), so no name is looked up again.
func (x *EntryIndex) ref(k int) EntryRef {
	e := &x.store.Entries[x.order[k]]
	return EntryRef{Store: x.store.Path, ID: e.ID(), Line: e.Line(), Timestamp: e.RawTimestamp(x.data)}
}

// storeRead is an entry scope's single source as it was read: the bytes
// the removals are spliced out of and the identity the rewrite checks.
type storeRead struct {
	scope skill.Scope
	store entries.Store
	data  []byte
	ident rewrite.Ident
}

// rewriteJob is one store to rewrite without the removed entries:
// removed[i] marks store.Entries[i], count is how many are marked.
type rewriteJob struct {
	storeRead
	removed []bool
	count   int
}

// splicedCopy is a rewrite's new store: the bytes of job.data the
// splice keeps, written as rewrite.Replace streams them.
type splicedCopy struct{ job rewriteJob }

// WriteTo writes the kept copy to w.
func (c splicedCopy) WriteTo(w io.Writer) (int64, error) {
	return c.job.store.WriteSpliced(w, c.job.data, c.job.removed)
}

// maxRounds bounds the reference closure; each round guards at least one
// more entry, so len(entries)+1 rounds always suffice.
func maxRounds(n int) int { return n + 1 }

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
	var st entries.Store
	if scope == skill.ScopeMemoryEntries {
		if st, err = entries.ParseMemory(rel, data, cfg.Now); err != nil {
			sc.errs = append(sc.errs, fserr.New(fserr.OpReadStore, rel, fserr.ErrNotStore))
			return sc, nil
		}
	} else {
		st = entries.ParseLedger(rel, data)
	}
	limitStoreMemory(before, st.Held(), len(data), len(st.Entries))
	sc.input.Excludes = entryPatterns(cfg.Excludes, rel)
	if storeExcluded(cfg.Excludes, rel) {
		sc.input.Excludes = append(slices.Clone(sc.input.Excludes), storeEntries(rel))
	}
	tracked := isTracked(cfg, rel)
	mtime := floorSeconds(ident.MtimeNs)
	// The entries in name order (the engine's and the merge walk's order),
	// sorted as indexes: a sort of the records would move 88 bytes each.
	// Its scan records are made on demand (scopeScan.file), not held.
	sc.entries = newEntryIndex(st, data, mtime)
	sc.young = cfg.keepWithinRule(nil, sc.input.Excludes)
	if !tracked {
		sc.input.Paths = make([]skill.Entry, 0, len(st.Entries))
	}
	for k := range sc.entries.order {
		f := sc.entries.file(k)
		if f.TimestampSource == scan.SourceMetadata {
			sc.sources.Metadata++
		} else {
			sc.sources.Mtime++
		}
		if tracked {
			sc.tracked++
			continue
		}
		if !sc.entries.live(k) && sc.young.protects(f.Path, f.Timestamp) {
			sc.fresh++
			continue
		}
		sc.input.Paths = append(sc.input.Paths, skill.Entry{Path: f.Path, SizeBytes: uint64(f.Size), Mtime: f.Timestamp, MtimeKnown: true})
	}
	if bad := st.Unreadable(); len(bad) > 0 {
		sc.extra = append(sc.extra, Warning{Kind: WarnUnreadableEntry, Scope: scope, Path: bad[0].Name, N: len(bad)})
	}
	if bad := st.Undecided(); len(bad) > 0 {
		sc.extra = append(sc.extra, Warning{Kind: WarnUndecidedEntry, Scope: scope, Path: bad[0].Name, N: len(bad)})
	}
	if tracked || len(sc.input.Paths) == 0 {
		return sc, nil
	}
	sc.input.HardGuards = append(sc.input.HardGuards, st.Guards()...)
	for range maxRounds(len(st.Entries)) {
		if !st.Refers() {
			break // guarding more is never needed
		}
		res, err := skill.Judge(sc.input)
		if err != nil || !res.Evaluated {
			break // the caller judges again and reports
		}
		removed := make(map[string]bool, len(res.Removed))
		for _, d := range res.Removed {
			removed[d.Path] = true
		}
		refs := st.Referenced(removed)
		if len(refs) == 0 {
			break
		}
		sc.input.HardGuards = append(sc.input.HardGuards, refs...)
	}
	return sc, &storeRead{scope: scope, store: st, data: data, ident: ident}
}

// storeExcluded reports whether the --exclude patterns match the store's
// own path (SPEC B6): then every entry of it is excluded.
func storeExcluded(patterns []string, rel string) bool {
	if len(patterns) == 0 {
		return false
	}
	m, err := gitignore.Compile(patterns) // validated by the caller
	return err == nil && m.Match(rel)
}

// storeEntries is the exclude pattern that matches every entry name of
// the store rel, and nothing else: "/<store>#*" (an entry name is one
// path segment; decision 112). It comes after the user's patterns, so a
// negation of one entry does not take it back from a store excluded whole.
func storeEntries(rel string) string { return "/" + rel + "#*" }

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
