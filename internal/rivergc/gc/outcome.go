//go:build linux

package gc

import (
	"iter"

	"github.com/plangate-gc/plangate-gc/internal/fserr"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/plan"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/scan"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/stores"
	"github.com/plangate-gc/plangate-gc/skill"
)

// Mode is "dry-run" or "force", as seed 000 spells them.
type Mode string

// The two modes.
const (
	DryRun Mode = "dry-run"
	Force  Mode = "force"
)

// Removed is one entry of removed[]: removed in force mode, would be
// removed in dry-run, with the evidence that decided it. It is a view
// that Outcome.Removed assembles from a scope's Removed and Stamps; no
// run stores one per file.
type Removed struct {
	// Decision is the engine's verdict: Path, SizeBytes, Reason and the
	// evidence (MtimeAge for age, Rank for count, Cumulative for size).
	skill.Decision
	Scope skill.Scope
	// Timestamp is the epoch second the file was judged by, and Source
	// where it came from (metadata, run or mtime).
	Timestamp int64
	Source    scan.TimestampSource
	// Entry is set for the entries of an entry scope (SPEC D2).
	Entry *stores.Ref
}

// Stamp is the timestamp a removed file was judged by, and its source.
type Stamp struct {
	Timestamp int64
	Source    scan.TimestampSource
	// Allocated is the file's st_blocks × 512 as scanned (0 for an entry).
	Allocated int64
}

// Protected counts the files a scope kept because a rule protects them,
// whatever their age (SPEC B3).
type Protected struct {
	// HardGuarded: the built-in single sources and what their symlinks
	// point to.
	HardGuarded int
	// Excluded: matched by --exclude.
	Excluded int
	// Tracked: tracked in the git index, or named .gitkeep or .keep.
	Tracked int
	// Fresh: younger than --keep-within (SPEC B9).
	Fresh int
	// NestedRepos counts directories (not files) of the scope that hold
	// a ".git" entry: repositories of their own, never entered, so none
	// of their files is counted anywhere else (SPEC B4).
	NestedRepos int
}

// Sources counts where the timestamps of a scope's files came from.
type Sources struct{ Metadata, Run, Mtime int }

// ScopeOutcome is one scope's judgement and what it kept.
type ScopeOutcome struct {
	Scope skill.Scope
	// Retention is the policy applied to the scope (SPEC D6).
	Retention skill.Retention
	// Result is the engine's judgement without its Removed list, which
	// moves to Removed below (one copy per run, not two).
	Result skill.Result
	// Removed is what the scope removed (would remove in a dry-run), in
	// path order: the engine's decisions, narrowed in force mode to the
	// files actually deleted. Stamps[i] is the timestamp Removed[i] was
	// judged by.
	Removed []skill.Decision
	Stamps  []Stamp
	// StoreFreed is, for an entry scope, what its store's rewrite frees
	// (would free, in a dry-run): the store's size less the size of its
	// splice, the separators between removed entries included, so a
	// dry-run reports the space --force then reclaims (decision 241).
	StoreFreed uint64
	// Kept and KeptBytes are keptSummary: every regular file of the scope
	// that was not removed (protected, unjudgeable and changed files
	// included).
	Kept      int
	KeptBytes skill.Bytes
	Protected Protected
	Sources   Sources
	// Linked and LinkedBytes count the removed files (force mode) whose
	// data other hard links still hold: their names are gone, their bytes
	// were not freed, so "reclaimed space" leaves them out (SPEC B4).
	Linked      int
	LinkedBytes skill.Bytes
	// NestedRepos names the nested repositories Protected.NestedRepos
	// counts, sorted.
	NestedRepos []string
	// Entries names, for an entry scope, what each judged name stands
	// for (SPEC D2); nil for a scope of files. at[i] is Removed[i]'s place
	// in it (name order).
	Entries *stores.Index
	at      []int32
}

// WarningKind names one of river gc's own warnings (SPEC B2, B3): each is
// something the user can act on.
type WarningKind string

// The warning kinds, in output order.
const (
	// WarnRootFixture: discovery passed over Path, a nearer directory
	// holding .river/ or artifacts/, for the top of its git work tree,
	// Target (SPEC B5).
	WarnRootFixture WarningKind = "root-fixture-passed"
	// WarnRootInWorkTree: the discovered root, Path, lies below the top
	// of its git work tree, Target, which holds neither .river/ nor
	// artifacts/: it may be a fixture.
	WarnRootInWorkTree WarningKind = "root-inside-work-tree"
	// WarnTrackedJournal: Path, a name river gc keeps its intent journal
	// under (journal.Ours), is tracked in the git index: a dry-run
	// neither reads it nor changes it, and --force refuses until it is
	// untracked and ignored (Target: the .gitignore pattern to add;
	// decision 346).
	WarnTrackedJournal WarningKind = "tracked-journal"
	// WarnDanglingSingleSource: a single source (artifacts/evals/latest)
	// is a symlink to nothing. Path is the link, Target its text.
	WarnDanglingSingleSource WarningKind = "dangling-single-source"
	// WarnSingleSourceOutsideRoot: a single source points outside the
	// root, so it protects nothing here. Path, Target.
	WarnSingleSourceOutsideRoot WarningKind = "single-source-outside-root"
	// WarnSingleSourceLoop: a single source is a symlink whose chain of
	// links loops (more than 40 hops). Path, Target.
	WarnSingleSourceLoop WarningKind = "single-source-loop"
	// WarnSingleSourceNotDir: a single source's symlink runs into a
	// file that is no directory on the way, or latest (the current run)
	// points to something that is no directory. Path, Target.
	WarnSingleSourceNotDir WarningKind = "single-source-not-a-directory"
	// WarnSingleSourceUndecided: where a single source's symlink leads
	// could not be decided (Err says why); the directory holding the link
	// is protected whole instead. Path, Target, Err.
	WarnSingleSourceUndecided WarningKind = "single-source-undecided"
	// WarnNestedRepo: N directories of Scope hold a ".git" entry and
	// were not entered: their files are kept whatever their age. Path is
	// the first.
	WarnNestedRepo WarningKind = "nested-repo"
	// WarnUnusedExclude: an --exclude pattern matched no file of the
	// selected scopes. Path is the pattern.
	WarnUnusedExclude WarningKind = "unused-exclude"
	// WarnUnjudgeableName: N files of Scope have names the engine cannot
	// judge (e.g. containing a backslash); they are kept. Path is the
	// first.
	WarnUnjudgeableName WarningKind = "unjudgeable-name"
	// WarnUnreadableEntry: N ledger lines of Scope are not a JSON object
	// with an RFC 3339 timestamp; they are kept. Path is the first.
	WarnUnreadableEntry WarningKind = "unreadable-entry"
	// WarnUndecidedEntry: N memory entries of Scope are kept because a
	// value that decides their fate (an expiry) is one river gc cannot
	// read the way upstream's JavaScript does (SPEC B6). Path is the
	// first.
	WarnUndecidedEntry WarningKind = "undecided-entry"
	// WarnFutureTimestamp: N files of Scope have a timestamp after --now;
	// they are kept. Path is the first.
	WarnFutureTimestamp WarningKind = "future-timestamp"
	// WarnUnusableTimestamp: N files of Scope have a timestamp at or
	// before 1970-01-01T00:00:00Z (an mtime of 0, say), which cannot be
	// judged; they are kept. Path is the first.
	WarnUnusableTimestamp WarningKind = "unusable-timestamp"
	// WarnFreshRemoved: the count or size limit (Target: "count",
	// "size" or "count,size") removes N files of Scope younger than
	// FreshAge; Path is the youngest, Age its age in seconds (SPEC B7).
	WarnFreshRemoved WarningKind = "fresh-removed"
	// WarnAggressive: Scope would remove N of Total files (> 80%), not
	// all of them past the age limit.
	WarnAggressive WarningKind = "aggressive"
	// WarnUnprotectedDelete: N files were deleted without the
	// rename-then-check protection (name too long for the private name,
	// or a file system without renameat2). Path is the first.
	WarnUnprotectedDelete WarningKind = "unprotected-delete"
	// WarnInFlight: N files are held under a private name by a --force
	// run that is running now (it holds the root's lock): they are being
	// deleted, and are neither listed nor leftovers. Path is the first.
	WarnInFlight WarningKind = "in-flight"
	// WarnLeftover: N files are held under a private name by an
	// interrupted --force run (dry-run leaves them; the next --force run
	// puts them back). Path is the first.
	WarnLeftover WarningKind = "leftover"
	// WarnRestored: N files left under a private name by an interrupted
	// run were put back. Path is the first.
	WarnRestored WarningKind = "restored"
	// WarnHeldDir: a directory a killed --force run held whole is under
	// its private name Path, with N regular files below it: Target
	// "restored" when this run put it back, "stays" when it could not
	// (errors[] says why), "" when the next --force run puts it back
	// (SPEC B8.8). One warning per directory.
	WarnHeldDir WarningKind = "held-directory"
	// WarnNoGitIndex: the root is a bucket (Path), which has no git
	// index: tracked-file protection does not apply there (SPEC H2).
	WarnNoGitIndex WarningKind = "no-git-index"
	// WarnVersioned: the bucket keeps versions: the N deletions left
	// delete markers, and their space returns only when the noncurrent
	// versions expire (SPEC H5). Path is the root.
	WarnVersioned WarningKind = "versioned-bucket"
)

// Warning is one river gc warning. Which fields are set depends on Kind.
type Warning struct {
	Kind     WarningKind
	Scope    skill.Scope
	Path     string
	Target   string
	N, Total int
	// Age is WarnFreshRemoved's youngest age, in seconds.
	Age int64
	// Err is the system error behind WarnSingleSourceUndecided.
	Err error
}

// ProtectedFile is a file (or entry) a rule kept whatever its age: Rule
// is VerdictGuarded, VerdictLive, VerdictNewestTwo,
// VerdictUnreadableLine, VerdictExcluded, VerdictTracked or VerdictFresh.
type ProtectedFile struct {
	Path  string
	Scope skill.Scope
	Rule  Verdict
}

// Outcome is the whole run, in the orders of SPEC Part B.
type Outcome struct {
	// ProtectedFiles lists, with Config.ListProtected, every protected
	// file of the selected scopes, in scope order then path order.
	ProtectedFiles []ProtectedFile
	// RunDirs are the eval-run directories the run emptied and removed
	// (a dry-run: would empty and remove), RunDirsStay those it emptied
	// that stay (changed since judged, or not removable), sorted.
	RunDirs, RunDirsStay []string
	Mode                 Mode
	// Requests counts a bucket run's requests by kind (SPEC H6); nil on
	// disk.
	Requests map[string]int
	// Scopes hold the removals, each scope's in path order; Removed
	// merges them into removed[].
	Scopes   []ScopeOutcome
	Warnings []Warning // in WarningKind order, then scope, then path
	// Errors is sorted by path, then operation; the report words them.
	Errors []*fserr.Error
	// Interrupted is what killed --force runs did, from their intent
	// journals; nil when no journal was found.
	Interrupted *Interrupted
	// In force mode, FreedBytes is the size of the deleted files that had
	// no other hard link (the space actually reclaimed), and Linked and
	// LinkedBytes count the deleted files whose bytes other links still
	// hold (the scopes' Linked, summed).
	FreedBytes  skill.Bytes
	Linked      int
	LinkedBytes skill.Bytes
	// FreedAllocated is, in force mode, the allocated bytes (st_blocks ×
	// 512) of the files FreedBytes counts: what du sees go (SPEC B5).
	FreedAllocated uint64
	// Run says which run this is (SPEC B5); the command fills it in.
	Run RunInfo
	// KeepWithin is the run's --keep-within in seconds (0: none).
	KeepWithin int64
	// Plan is, with Config.PlanOut, the plan of this dry-run (SPEC J1);
	// the command fills in its root and tool version and writes it.
	Plan *plan.Plan
	// Applied is, with Config.Plan, the plan this run applied.
	Applied *plan.Plan
}

// RunInfo names a run for its record: the root (absolute), the
// reference time, the tool's version and how long the run took.
// DurationMs is the one field that varies between identical runs.
type RunInfo struct {
	Root       string
	Now        int64
	Version    string
	DurationMs int64
}

// RemovedCount is the number of entries of removed[].
func (o Outcome) RemovedCount() int {
	n := 0
	for _, s := range o.Scopes {
		n += len(s.Removed)
	}
	return n
}

// Removed returns removed[] in path order (byte order): the scopes'
// removals, each already in path order, merged as they are read.
func (o Outcome) Removed() iter.Seq[Removed] { return o.removed(true) }

// Evidence returns removed[] as Removed does but without Entry: what
// evidence[] needs, without reading what each entry stands for (at a
// million entries that is a tenth of a second).
func (o Outcome) Evidence() iter.Seq[Removed] { return o.removed(false) }

// removed merges the scopes' removals, with what each entry stands for
// when withEntry.
func (o Outcome) removed(withEntry bool) iter.Seq[Removed] {
	return func(yield func(Removed) bool) {
		next := make([]int, len(o.Scopes)) // per scope: its first removal not yet yielded
		for {
			best := -1
			for i := range o.Scopes {
				if next[i] < len(o.Scopes[i].Removed) &&
					(best < 0 || o.Scopes[i].Removed[next[i]].Path < o.Scopes[best].Removed[next[best]].Path) {
					best = i
				}
			}
			if best < 0 {
				return
			}
			s, k := &o.Scopes[best], next[best]
			next[best]++
			r := Removed{Decision: s.Removed[k], Scope: s.Scope, Timestamp: s.Stamps[k].Timestamp, Source: s.Stamps[k].Source}
			if withEntry && k < len(s.at) {
				e := s.Entries.Ref(int(s.at[k]))
				r.Entry = &e
			}
			if !yield(r) {
				return
			}
		}
	}
}

// Verdict is what river gc decided for one path (--explain).
type Verdict string

// The verdicts, one rule each.
const (
	VerdictRemove  Verdict = "remove"  // Removed holds reason and evidence
	VerdictKeep    Verdict = "keep"    // within every retention limit
	VerdictGuarded Verdict = "guarded" // a single source or its target
	VerdictLive    Verdict = "live"    // a memory entry that is live or a kept entry refers to (SPEC D3)
	// VerdictNewestTwo: one of the eval ledger's last two lines, which
	// compare-eval-ledger compares (SPEC D4; decision 243).
	VerdictNewestTwo Verdict = "newest-two"
	// VerdictUnreadableLine: a ledger line that is not a JSON object with
	// a timestamp as upstream reads it, kept (SPEC B6; decision 243).
	VerdictUnreadableLine Verdict = "unreadable-line"
	VerdictExcluded       Verdict = "excluded"     // matched --exclude (Pattern)
	VerdictTracked        Verdict = "tracked"      // in the git index, or .gitkeep/.keep
	VerdictFresh          Verdict = "fresh"        // younger than --keep-within (KeepWithin)
	VerdictUnjudgeable    Verdict = "unjudgeable"  // a name the engine cannot judge
	VerdictFuture         Verdict = "future"       // timestamp after --now
	VerdictUnusable       Verdict = "unusable"     // timestamp at or before 1970
	VerdictNestedRepo     Verdict = "nested-repo"  // inside a repository of its own, never entered
	VerdictNotInScope     Verdict = "not-in-scope" // in none of the selected scopes
	VerdictOutside        Verdict = "outside"      // an existing file outside every selected scope
	VerdictDirectory      Verdict = "directory"    // a directory (Below, BelowRemoved count its judged files)
	VerdictSymlink        Verdict = "symlink"      // a symbolic link: never followed, never removed
	VerdictNotRegular     Verdict = "not-regular"  // a FIFO, socket or device: never opened, never removed
	VerdictInSource       Verdict = "in-source"    // at or below a single source (Source names it)
	VerdictNotFound       Verdict = "not-found"    // no regular file at that path
	// VerdictEntryScopeOff: an entry name (store#name) whose entry scope
	// is not selected; VerdictNoEntry: its scope is, and the store holds
	// no entry of that name (SPEC D2).
	VerdictEntryScopeOff Verdict = "entry-scope-off"
	VerdictNoEntry       Verdict = "no-entry"
	VerdictError         Verdict = "error" // could not be examined (Err)
	// VerdictOutsideRoot: the path, taken from the working directory,
	// lies outside the root (SPEC B7).
	VerdictOutsideRoot Verdict = "outside-root"
)

// Explanation answers "why" for one path (--explain).
type Explanation struct {
	// Path is the path as asked, made root-relative.
	Path    string
	Scope   skill.Scope // "" for not-in-scope and not-found
	Verdict Verdict
	// SizeBytes, Timestamp and Source describe the file as scanned.
	SizeBytes uint64
	Timestamp int64
	Source    scan.TimestampSource
	// AgeDays is (now − Timestamp) div 86400.
	AgeDays int64
	// Decision is set for VerdictRemove.
	Decision skill.Decision
	// Err is set for VerdictError.
	Err *fserr.Error
	// Retention is the policy applied to the scope (SPEC D6).
	Retention skill.Retention
	// Below and BelowRemoved count, for a directory, the judged files
	// below it and those of them removed; SingleSource names the single
	// source of VerdictInSource.
	Below, BelowRemoved int
	SingleSource        string
	// RunDirGoes: the directory is an eval run's folder that the
	// removals empty, removed with them (SPEC B7); RunDirsBelow counts
	// such folders at or below it.
	RunDirGoes   bool
	RunDirsBelow int
	// OptIn is a scope that is not selected and covers the path (an
	// opt-in scope, or a default one left out by --scope): the hint
	// names the flag that judges it (SPEC B7). EntriesAs is the entry
	// scope whose store the path is: its entries are judged as
	// Path#NAME.
	OptIn, EntriesAs skill.Scope
	EntriesSelected  bool // EntriesAs is selected
	// Root is the root's name, for VerdictOutsideRoot.
	Root string
	// KeepWithin is --keep-within in seconds, for VerdictFresh.
	KeepWithin int64
}
