// Package skill is the judgement of plangate-gc-deterministic: given an
// inventory, a retention policy, hard guards, excludes and a reference time,
// it decides KEEP or REMOVE for every path (SPEC Part A, A3–A9).
//
// It is a pure function. It must not read files, the clock or the
// environment, log, or mutate its argument; everything it decides is
// returned as data so that render can word it and river gc can act on it.
package skill

import "github.com/plangate-gc/plangate-gc/internal/jsonnum"

// Scope names one of the artifact families river gc collects.
type Scope string

// The scopes, in the order river gc reports them: the four of seed 000,
// then the saved review runs and the two entry scopes of SPEC D, whose
// "paths" are entries inside one file (SPEC D2).
const (
	ScopeMemory          Scope = "memory"
	ScopeEvals           Scope = "evals"
	ScopeReviewArtifacts Scope = "review-artifacts"
	ScopeTmp             Scope = "tmp"
	ScopeRuns            Scope = "runs"
	ScopeMemoryEntries   Scope = "memory-entries"
	ScopeEvalLedger      Scope = "eval-ledger"
)

// Scopes returns every scope in the fixed order memory, evals,
// review-artifacts, tmp, runs, memory-entries, eval-ledger.
func Scopes() []Scope {
	return []Scope{ScopeMemory, ScopeEvals, ScopeReviewArtifacts, ScopeTmp, ScopeRuns, ScopeMemoryEntries, ScopeEvalLedger}
}

// DefaultScopes returns the four scopes seed 000's "all" means; the
// scopes of SPEC D are opt-in.
func DefaultScopes() []Scope {
	return []Scope{ScopeMemory, ScopeEvals, ScopeReviewArtifacts, ScopeTmp}
}

// Valid reports whether s is one of the scopes.
func (s Scope) Valid() bool {
	switch s {
	case ScopeMemory, ScopeEvals, ScopeReviewArtifacts, ScopeTmp, ScopeRuns, ScopeMemoryEntries, ScopeEvalLedger:
		return true
	}
	return false
}

// Store returns the file whose entries an entry scope judges (SPEC D2),
// or "" for a scope of files.
func (s Scope) Store() string {
	switch s {
	case ScopeMemoryEntries:
		return MemoryIndex
	case ScopeEvalLedger:
		return EvalLedger
	}
	return ""
}

// The two single-source files whose entries are judged (SPEC D2).
const (
	MemoryIndex = ".river/memory/index.json"
	EvalLedger  = "artifacts/evals/results.jsonl"
)

// MaxSafe is 2^53−1, the bound of every integer the engine takes: sizes,
// timestamps and now (SPEC A2), the largest integer a double holds exactly.
const MaxSafe = 1<<53 - 1

// Entry is one inventory item (SPEC A2 paths[]).
type Entry struct {
	// Path is the repository-relative path exactly as given.
	Path string
	// SizeBytes is the entry's size (0 ≤ SizeBytes ≤ 2^53−1).
	SizeBytes uint64
	// Mtime is the modification time in epoch seconds, valid when MtimeKnown.
	Mtime      int64
	MtimeKnown bool
	// Dir is true when the entry declared "type": "dir".
	Dir bool
	// Guarded is true when the caller guards this entry itself: it is
	// judged as a path both HardGuards and DerivedGuards cover, without a
	// guard of its own (an entry scope's live entries: a guard was 16
	// bytes of list and 4 of set an entry; the field takes the struct's
	// padding). It covers no other entry, even one of the same path (a
	// repeated path is never guarded, SPEC A7 step 3). The gate never sets
	// it: it is not part of a document.
	Guarded bool
}

// Retention is the policy of SPEC A2; each value keeps its input literal
// so that messages can echo it verbatim (SPEC A3).
type Retention struct {
	Days       jsonnum.Number
	MaxEntries jsonnum.Number
	MaxSizeMb  jsonnum.Number
}

// Input is one gated skill document.
type Input struct {
	Scope      Scope
	Paths      []Entry
	Retention  Retention
	Now        int64
	HardGuards []string
	Excludes   []string
	// DerivedGuards are guards the caller derived itself rather than took
	// from a person's configuration (river gc's single sources): a path
	// they cover draws no guard-exclude or guard-retention warning. They
	// guard nothing on their own; HardGuards does.
	DerivedGuards []string
}

// Status is the outcome of a judgement that passed the gate.
type Status string

// Judgement outcomes; no_review belongs to the gate, not to the skill.
const (
	StatusOK      Status = "ok"
	StatusHandoff Status = "handoff"
)

// Reason is the single policy that removed a path.
type Reason string

// The three removal reasons, in precedence order.
const (
	ReasonAge   Reason = "age"
	ReasonCount Reason = "count"
	ReasonSize  Reason = "size"
)

// Decision is one REMOVE verdict with the evidence that justifies it.
type Decision struct {
	Path string
	// SizeBytes is copied from the Entry.
	SizeBytes uint64
	Reason    Reason
	// MtimeAge is set for age: whole days between mtime and now.
	MtimeAge int64
	// Rank is set for count: the 1-based position in (mtime DESC, path DESC).
	Rank int
	// Cumulative is set for size: the running sum of sizes at this entry.
	Cumulative Bytes
}

// Counts are the per-category tallies of SPEC A7 and A11.
type Counts struct {
	Keep, Remove                    int
	HardGuarded, Excluded           int
	MtimeMissing, MtimeInconsistent int
	Duplicates                      int
	Directories, OutOfScope         int
}

// WarningKind names one entry of the closed warning list of SPEC A9.
type WarningKind string

// The warning kinds, in output order.
const (
	WarnGuardExclude          WarningKind = "guard-exclude"
	WarnGuardRetention        WarningKind = "guard-retention"
	WarnUnguardedSingleSource WarningKind = "unguarded-single-source"
	WarnMtimeMissing          WarningKind = "mtime-missing"
	WarnMtimeInconsistent     WarningKind = "mtime-inconsistent"
	WarnDuplicate             WarningKind = "duplicate"
	WarnAggressive            WarningKind = "aggressive"
)

// WarningKinds returns the closed list of SPEC A9 in output order.
func WarningKinds() []WarningKind {
	return []WarningKind{WarnGuardExclude, WarnGuardRetention, WarnUnguardedSingleSource,
		WarnMtimeMissing, WarnMtimeInconsistent, WarnDuplicate, WarnAggressive}
}

// Warning is a severity=major finding. Which fields are set depends on Kind:
// Path for the per-path kinds; N and First for the counted kinds; Remove and
// Total for aggressive.
type Warning struct {
	Kind          WarningKind
	Path          string
	N             int
	First         string
	Remove, Total int
}

// QuestionKind names a human-handoff question (SPEC A8).
type QuestionKind string

// The question kinds, in output order.
const (
	QuestionInvalidRetention  QuestionKind = "invalid-retention"
	QuestionUnreliableMtime   QuestionKind = "unreliable-mtime"
	QuestionGuardsNotSupplied QuestionKind = "guards-not-supplied"
)

// Question asks a human to decide. Key and Literal are set for
// invalid-retention; N and Total for unreliable-mtime; Path (the single
// source) for guards-not-supplied.
type Question struct {
	Kind     QuestionKind
	Key      string
	Literal  string
	N, Total int
	Path     string
}

// Result is the complete judgement of one document.
type Result struct {
	Status Status
	Scope  Scope
	// Evaluated is false when invalid retention blocked the whole document:
	// then only Questions carry information.
	Evaluated bool
	// Removed is sorted by path (byte order); each path appears once.
	Removed   []Decision
	Counts    Counts
	KeptBytes Bytes
	Warnings  []Warning
	Questions []Question
}
