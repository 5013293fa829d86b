//go:build linux

// Package gc is river gc's run: scan each scope, ask the engine, and with
// --force delete what it decided, per file and race-safely. Data flows one
// way: scan → skill → sweep.
//
// gc decides nothing itself (the verdicts are skill's), words nothing
// (package report's job) and parses no flags (cmd/river-gc's job). Every
// file-system operation of a run is relative to one root descriptor
// (Root), opened once (SPEC B2).
package gc

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync/atomic"

	"golang.org/x/text/unicode/norm"

	"github.com/plangate-gc/plangate-gc/internal/backend/local/sweep"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
	"github.com/plangate-gc/plangate-gc/internal/prefault"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/plan"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/scan"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/stores"
	"github.com/plangate-gc/plangate-gc/skill"
)

// Config is a validated river gc invocation.
type Config struct {
	Root   *Root
	Scopes []skill.Scope // resolved, de-duplicated, in skill.Scopes() order
	// Retention is the policy of every scope without an entry in
	// PerScope (SPEC D6).
	Retention skill.Retention
	PerScope  map[skill.Scope]skill.Retention
	Now       int64
	// KeepWithin, when positive, keeps every file and entry younger
	// than this many seconds before Now from every limit
	// (--keep-within; SPEC B9).
	KeepWithin int64
	Excludes   []string
	Mode       Mode
	// Metadata reads artifact metadata timestamps (--timestamp metadata).
	Metadata bool
	// Tracked protects the files of the git index; nil protects none
	// (files named .gitkeep or .keep are protected regardless).
	Tracked interface{ Contains(rel string) bool }
	// OnFile and OnNote, when set, see every scanned file and every scan
	// note (--debug).
	OnFile func(scope skill.Scope, f scan.File)
	OnNote func(scope skill.Scope, n scan.Note)
	// Intend, when set, is told about each single-source rewrite after
	// its temporary file is written and its intent journaled, before the
	// original is checked and replaced (rewrite.Options.Intend); an error
	// stops that rewrite. Tests use it to act at that instant.
	Intend func(temp, target string) error
	// explain makes judge record every file's verdict (Explain).
	explain bool
	// ListProtected makes the outcome list the protected files with
	// their rule (--verbose; SPEC B7).
	ListProtected bool
	// Scanned, when set, is told after each scope how many files have been
	// scanned so far; Progress how far deletion has come.
	Scanned  func(files int)
	Progress func(done, total int)
	// Seen, when set, counts the files found while scopes are scanned
	// (read concurrently, for progress off a terminal).
	Seen *atomic.Int64
	// Record, when set, writes the run's record (JSON, summary) while the
	// run still holds the lock, and says whether the record was written.
	// Only then does a --force run remove the intent journals (its own
	// and those of killed runs); otherwise they stay for the next run.
	// Without Record they are removed when Run returns.
	Record func(Outcome) (recorded bool, err error)
	// BeforeDelete, when set, is told in force mode, before the first
	// deletion, the warnings about what is to go (Ahead; SPEC B9).
	BeforeDelete func([]Warning)
	// PlanOut makes a dry-run record its removals with their identities
	// (Outcome.Plan, SPEC J1); Plan, when set, narrows the run's removals
	// to the plan's items that are still what was planned (SPEC J2).
	PlanOut bool
	Plan    *plan.Plan
	// restored are the private names a killed run left that this run put
	// back: renamed by river gc itself, their ctime is not the planned
	// one (narrowToPlan).
	restored []string
}

// Run executes river gc. In force mode it holds the root's lock for the
// whole run; the error is fserr.ErrLocked (wrapped) or a failure to lock. Per-file
// problems are Outcome.Errors, never an error. When ctx is cancelled
// (SIGINT, SIGTERM, SIGHUP, SIGQUIT) no further deletion is attempted and
// Outcome.Errors says how many were not; what was deleted is in
// Outcome.Removed. Deletions are journaled first (SPEC B4); what the
// journals of killed runs say is Outcome.Interrupted. The error is
// Record's when it is set.
func Run(ctx context.Context, cfg Config) (Outcome, error) {
	s, err := cfg.Root.tree.begin(ctx, cfg)
	if err != nil {
		return Outcome{}, err
	}
	bg := context.WithoutCancel(ctx) // the record's own work outlives a signal
	j, err := judge(cfg)
	if err != nil {
		closeRunDirs(j.runDirs)
		s.end(bg, false) //nolint:errcheck // the journals stay for the next run
		return Outcome{}, err
	}
	var restored sweep.Report
	if cfg.Mode == Force && (len(j.leftovers) > 0 || len(j.held) > 0) {
		j.leftovers = restorable(cfg, withHeld(j.leftovers, j.held))
	}
	held, heldUsed := j.held, j.heldUsed // the second judgement finds those put back in place
	if cfg.Mode == Force && len(j.leftovers) > 0 {
		// A killed run left files under private names: put them back
		// (never over another file), then judge the tree as it now is.
		restored = s.restore(j.leftovers)
		cfg.restored = restored.Restored
		closeRunDirs(j.runDirs)
		if j, err = judge(cfg); err != nil {
			closeRunDirs(j.runDirs)
			s.end(bg, false) //nolint:errcheck // as above
			return Outcome{}, err
		}
	}
	out := j.out
	out.Errors = append(out.Errors, restored.Errors...)
	out.Warnings = heldWarnings(out.Warnings, held, heldUsed, restored, cfg.Mode == Force)
	if n := len(restored.Restored); n > 0 {
		out.Warnings = append(out.Warnings, Warning{Kind: WarnRestored, Path: slices.Min(restored.Restored), N: n})
	}
	interrupted, recErrs, rerr := s.recover(ctx, cfg, j.leftovers) // those still in place
	out.Interrupted = interrupted
	out.Errors = append(out.Errors, recErrs...)
	uncertain := false
	switch {
	case cfg.Mode != Force:
	case rerr != nil && (len(j.targets) > 0 || len(j.rewrites) > 0):
		// A journal that cannot be read could name deletions no record
		// holds: it is kept, and nothing is deleted until it is dealt with.
		notJournaled(&out, j)
	default:
		cfg.warnAhead(&j)
		s.change(ctx)
		if len(j.targets) > 0 {
			rep, u := s.delete(ctx, cfg, j.targets, j.holds)
			out.apply(rep)
			uncertain = u
		}
		if out.rewriteStores(ctx, cfg, s, j.rewrites) {
			uncertain = true
		}
		s.done(bg)
		// What a run emptied goes with it: empty directories only, after
		// the deletions, never the scope's own (SPEC B7).
		if ctx.Err() == nil {
			out.RunDirs, out.RunDirsStay = s.removeRunDirs(j.runDirs)
		}
	}
	closeRunDirs(j.runDirs) // released by removeRunDirs when it ran
	if cfg.Mode != Force {
		for _, d := range j.runDirs {
			out.RunDirs = append(out.RunDirs, d.path)
		}
		slices.Sort(out.RunDirs)
	}
	out.Warnings = append(out.Warnings, s.warnings(cfg, &out)...)
	out.sort()
	out.Requests = s.requests()
	recorded, err := true, error(nil)
	if cfg.Record != nil {
		recorded, err = cfg.Record(out)
	}
	// A delete whose outcome is unknown (the request failed after its
	// retries: the server may have acted) keeps the journal, so the next
	// run names what is gone; never a deletion without a record.
	commit := cfg.Mode == Force && recorded && rerr == nil && !uncertain
	return out, errors.Join(err, s.end(bg, commit))
}

// notJournaled settles a --force run that may not delete because a
// killed run's journal could not be read: its first journal error says
// how many deletions and rewrites were not attempted, and nothing is
// removed.
func notJournaled(out *Outcome, j judgement) {
	notAttempted := len(j.targets)
	for _, job := range j.rewrites {
		notAttempted += job.Count
	}
	for _, e := range out.Errors {
		var ue *fserr.UnreadableJournalError
		if e.Op == fserr.OpJournal && !errors.As(e.Err, &ue) {
			e.Err = &fserr.NotJournaledError{Cause: e.Err, NotAttempted: notAttempted}
			break
		}
	}
	out.apply(sweep.Report{})
	for _, job := range j.rewrites {
		out.keepStore(job.scope)
	}
}

// flatten lists the errors joined in err.
func flatten(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// restorable keeps the leftovers that can be ours: river gc only ever
// renames a file it is about to delete, so a private name that is itself
// tracked or a placeholder, or whose original name is a single source or
// is tracked, was not made by river gc and is left alone. An exclude
// proves nothing: it may be newer than the killed run, and a leftover
// that stays hidden because of it never comes back (SPEC B8.8); put
// back, what it names is protected as ever.
func restorable(cfg Config, leftovers []string) []string {
	guards, _ := singleSources(cfg.Root, cfg.Scopes)
	return slices.DeleteFunc(slices.Clone(leftovers), func(p string) bool {
		dir, name := path.Split(p)
		orig := dir + strings.TrimPrefix(name, sweep.PrivatePrefix)
		nfc := norm.NFC.String(orig)
		return isTracked(cfg, p) || isTracked(cfg, orig) || guarded(guards, nfc) ||
			trackedUnder(cfg, p) || trackedUnder(cfg, orig) // a held directory
	})
}

// trackedUnder reports whether git tracks anything below the directory
// p (a set that can say so; gitindex.Set does).
func trackedUnder(cfg Config, p string) bool {
	u, ok := cfg.Tracked.(interface{ HasUnder(dir string) bool })
	return ok && u.HasUnder(p)
}

// judgement is a judged run before any deletion.
type judgement struct {
	out       Outcome
	targets   []sweep.Target
	rewrites  []rewriteJob           // single sources to rewrite without removed entries (--force)
	leftovers []string               // files held under a private name by a killed run
	files     map[string]fileVerdict // every scanned path (for --explain)
	runDirs   []runDir               // eval-run directories the removals empty (rundirs.go)
	holds     []string               // directories --force may hold whole (holds.go)
	held      []heldDir              // directories killed runs held whole (heldback.go)
	heldUsed  []string               // --exclude patterns only those matched
	planKept  map[string]fileVerdict // planned paths the run keeps, with why (plan.go)
}

// fileVerdict is what happened to one scanned file.
type fileVerdict struct {
	scope    skill.Scope
	file     scan.File
	verdict  Verdict
	decision skill.Decision
}

// judge scans and judges every scope.
func judge(cfg Config) (judgement, error) {
	j := judgement{out: Outcome{Mode: cfg.Mode, KeepWithin: max(cfg.KeepWithin, 0)}, files: map[string]fileVerdict{}}
	guards, warnings := singleSources(cfg.Root, cfg.Scopes)
	j.out.Warnings = warnings
	excludes := newExcludeUse(cfg.Excludes)
	total := 0
	for _, scope := range cfg.Scopes {
		sc, store := scanAny(cfg, scope, guards)
		j.out.Errors = append(j.out.Errors, sc.errs...)
		j.out.Warnings = append(j.out.Warnings, sc.extra...)
		res, err := skill.Judge(sc.input)
		if err != nil {
			return j, fmt.Errorf("judging scope %s: %w", scope, err)
		}
		// The engine's input is spent once what warns about it is known:
		// at a million entries it is 40 MB the rest of the run need not
		// hold (SPEC B6 cost).
		engineWs := engineWarnings(scope, res, sc)
		excludes.see(sc.input.Paths)
		sc.input.Paths = nil
		if sc.entries != nil {
			collectSpentInput()
		}
		so := ScopeOutcome{Scope: scope, Retention: sc.input.Retention, Result: res, Removed: res.Removed, Stamps: make([]Stamp, len(res.Removed)),
			Sources: sc.sources, Protected: Protected{HardGuarded: res.Counts.HardGuarded, Excluded: res.Counts.Excluded, Tracked: sc.tracked,
				Fresh: sc.fresh, NestedRepos: len(sc.repos)}, NestedRepos: sc.repos, Entries: sc.entries}
		so.Result.Removed = nil // moved to so.Removed
		prefault.Slice(so.Stamps)
		// res.Removed and sc.files are both in path order: one merge walk
		// finds each removed file's scan record, and keptSummary counts
		// every regular file not removed (what the engine kept, what it
		// could not judge, and the tracked files it never saw). Deletion
		// targets are built for --force only.
		if sc.entries != nil {
			so.at = make([]int32, len(res.Removed))
		}
		var marks []bool // an entry scope: the removed entries, by index
		if store != nil && len(res.Removed) > 0 {
			marks = sc.entries.Marks()
		}
		i, n, t0 := 0, sc.fileCount(), len(j.targets)
		for k, d := range res.Removed {
			f := sc.file(i)
			for ; f.Path != d.Path; f = sc.file(i) {
				so.Kept++
				so.KeptBytes = so.KeptBytes.Add(uint64(f.Size))
				i++
			}
			if sc.entries != nil {
				so.at[k] = int32(i)
			}
			if marks != nil {
				sc.entries.Mark(marks, i) // names of removals are unique (the engine keeps duplicates)
			}
			i++
			so.Stamps[k] = Stamp{Timestamp: f.Timestamp, Source: f.TimestampSource, Allocated: f.Allocated}
			if (cfg.Mode == Force || cfg.PlanOut || cfg.Plan != nil) && store == nil && scope.Store() == "" {
				j.targets = append(j.targets, sweep.Target{Path: f.Path, Dev: f.Dev, Ino: f.Ino, Size: f.Size, MtimeNs: f.MtimeNs, CtimeNs: f.CtimeNs})
			}
		}
		for ; i < n; i++ {
			so.Kept++
			so.KeptBytes = so.KeptBytes.Add(uint64(sc.file(i).Size))
		}
		j.holds = append(j.holds, holdDirs(sc.dirs, j.targets[t0:])...)
		if marks != nil {
			so.StoreFreed = uint64(sc.entries.Freed(marks))
			if cfg.Mode == Force {
				j.rewrites = append(j.rewrites, rewriteJob{Job: stores.Job{Index: sc.entries, Removed: marks, Count: len(res.Removed)}, storeRead: *store})
			}
		}
		if scope == skill.ScopeEvals {
			j.runDirs = cfg.Root.tree.emptiedRunDirs(sc.files, res.Removed, cfg.Mode == Force)
		}
		j.classify(scope, sc, res, cfg)
		j.leftovers = append(j.leftovers, sc.leftovers...)
		j.out.Warnings = append(j.out.Warnings, engineWs...)
		j.out.Warnings = append(j.out.Warnings, freshWarning(scope, so.Removed, so.Stamps, cfg.Now)...)
		j.out.Scopes = append(j.out.Scopes, so)
		if store != nil {
			// A pattern naming the store protects its entries: used.
			excludes.see([]skill.Entry{{Path: scope.Store()}})
		}
		total += sc.fileCount()
		if cfg.Scanned != nil {
			cfg.Scanned(total)
		}
	}
	j.held, j.heldUsed = cfg.Root.tree.heldDirs(cfg, j.leftovers, excludes)
	j.out.Warnings = append(j.out.Warnings, excludes.warnings()...)
	j.planStep(cfg)
	j.warnLeftovers(cfg)
	return j, nil
}

// warnLeftovers names, in a dry-run, the files under private names.
// Private names under a held lock belong to a live --force run: files in
// flight, not leftovers of an interrupted one (SPEC B4).
func (j *judgement) warnLeftovers(cfg Config) {
	if n := len(j.leftovers); n > 0 && cfg.Mode != Force {
		kind := WarnLeftover
		if cfg.Root.tree.inFlight() {
			kind = WarnInFlight
		}
		j.out.Warnings = append(j.out.Warnings, Warning{Kind: kind, Path: slices.Min(j.leftovers), N: n})
	}
}

// sort puts warnings[] and errors[] in their documented orders (each
// scope's removals are in path order already; Removed merges them).
func (o *Outcome) sort() {
	slices.SortStableFunc(o.Warnings, func(a, b Warning) int {
		return cmp.Or(cmp.Compare(warningRank(a.Kind), warningRank(b.Kind)),
			cmp.Compare(scopeRank(a.Scope), scopeRank(b.Scope)), strings.Compare(a.Path, b.Path))
	})
	slices.SortFunc(o.Errors, func(a, b *fserr.Error) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(string(a.Op), string(b.Op)),
			strings.Compare(a.Err.Error(), b.Err.Error()))
	})
}

func warningRank(k WarningKind) int { return slices.Index(WarningKinds(), k) }

func scopeRank(s skill.Scope) int { return slices.Index(skill.Scopes(), s) }

// WarningKinds returns river gc's warning kinds in output order.
func WarningKinds() []WarningKind {
	return []WarningKind{WarnRootFixture, WarnRootInWorkTree, WarnTrackedJournal, WarnDanglingSingleSource, WarnSingleSourceOutsideRoot, WarnSingleSourceLoop,
		WarnSingleSourceNotDir, WarnSingleSourceUndecided, WarnNestedRepo, WarnUnusedExclude,
		WarnUnjudgeableName, WarnUnreadableEntry, WarnUndecidedEntry, WarnUnusableTimestamp, WarnFutureTimestamp, WarnFreshRemoved, WarnAggressive,
		WarnUnprotectedDelete, WarnInFlight, WarnLeftover, WarnRestored, WarnHeldDir, WarnNoGitIndex, WarnVersioned,
		WarnPlanApplied, WarnPlanGone, WarnNotPlanned}
}

// liveAsGuards is an entry scope's engine input as a document says it:
// the live entries, which river gc marks Guarded (store.go), are named in
// hardGuards (and derivedGuards), after the first n guards (the single
// sources) and before the ones the reference closure added.
func liveAsGuards(in skill.Input, st *stores.Store, n int) skill.Input {
	gs := st.Guards(slices.Clone(in.HardGuards[:n]))
	in.HardGuards = append(gs, in.HardGuards[n:]...)
	in.DerivedGuards = in.HardGuards
	return in
}

// Inventories returns the skill input document of every scope that has at
// least one entry (--emit-inventory), with the scan errors.
func Inventories(cfg Config) ([]skill.Input, []*fserr.Error) {
	var docs []skill.Input
	var errs []*fserr.Error
	guards, _ := singleSources(cfg.Root, cfg.Scopes)
	for _, scope := range cfg.Scopes {
		sc, _ := scanAny(cfg, scope, guards)
		errs = append(errs, sc.errs...)
		if sc.entries != nil {
			sc.input = liveAsGuards(sc.input, sc.entries.Store(), len(guards))
		}
		if len(sc.input.Paths) > 0 {
			docs = append(docs, sc.input)
		}
	}
	return docs, errs
}

// scanAny scans a scope of files, or reads the single source of an entry
// scope (SPEC D2).
func scanAny(cfg Config, scope skill.Scope, guards []string) (scopeScan, *storeRead) {
	if scope.Store() != "" {
		sc, st := scanStore(cfg, scope, guards)
		// Every guard of an entry scope is river gc's own (built-in
		// sources, live entries, referenced ones): marked so, the pipe
		// warns about none of them (decision 62).
		sc.input.DerivedGuards = sc.input.HardGuards
		return sc, st
	}
	return scanScope(cfg, scope, guards), nil
}

// retentionFor is the policy applied to a scope (SPEC D6).
func (cfg Config) retentionFor(s skill.Scope) skill.Retention {
	if r, ok := cfg.PerScope[s]; ok {
		return r
	}
	return cfg.Retention
}

// RetentionFor is the policy applied to a scope: its own (SPEC D6) or the
// default.
func (cfg Config) RetentionFor(s skill.Scope) skill.Retention { return cfg.retentionFor(s) }

// keepName reports whether a base name is a placeholder that is protected
// everywhere (SPEC B2).
func keepName(p string) bool {
	b := path.Base(p)
	return b == ".gitkeep" || b == ".keep"
}
