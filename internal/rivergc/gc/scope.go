//go:build linux

package gc

import (
	"slices"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/plangate-gc/plangate-gc/internal/gitignore"
	"github.com/plangate-gc/plangate-gc/internal/prefault"

	"github.com/plangate-gc/plangate-gc/internal/fserr"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/scan"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/stores"
	"github.com/plangate-gc/plangate-gc/skill"
)

// maxSize is the largest size and timestamp magnitude the engine accepts.
const maxSize = skill.MaxSafe

// scopeScan is one scope's scan turned into engine input.
type scopeScan struct {
	input     skill.Input
	files     []scan.File // every regular file found, judged or not, in path order (a scope of files)
	tracked   int         // files protected as tracked; never handed to the engine
	fresh     int         // files kept by --keep-within; never handed to the engine
	young     *keepWithin // --keep-within's rule (nil: none)
	sources   Sources
	leftovers []string
	repos     []string   // nested repositories, not entered
	dirs      []scan.Dir // directories listed whole (scan.Result.Dirs)
	errs      []*fserr.Error
	// entries names what each file of an entry scope stands for (SPEC
	// D2); extra holds the scope's own warnings (unreadable lines).
	entries *stores.Index
	extra   []Warning
}

// fileCount is the number of regular files (or entries) the scope found.
func (sc *scopeScan) fileCount() int {
	if sc.entries != nil {
		return sc.entries.Len()
	}
	return len(sc.files)
}

// file is the i-th of them in path order: an entry scope's record is
// made on demand from its store.
func (sc *scopeScan) file(i int) scan.File {
	if sc.entries != nil {
		return sc.entries.File(i)
	}
	return sc.files[i]
}

// scanScope scans one scope and builds its engine input with the given
// hard guards (SPEC Part B). Tracked files and .gitkeep/.keep placeholders
// are set aside: they are kept whatever the policy says, so they neither
// take a place in the count policy nor draw the engine's warnings about
// guards. Files the engine could not take (beyond 2^53−1) are errors.
func scanScope(cfg Config, scope skill.Scope, guards []string) scopeScan {
	res := cfg.Root.tree.scanScope(cfg, scope)
	sc := scopeScan{
		input: skill.Input{Scope: scope, Retention: cfg.retentionFor(scope), Now: cfg.Now, Excludes: cfg.Excludes, HardGuards: guards,
			DerivedGuards: guards}, // river gc derived every guard itself (decision 62)
		errs: res.Errors,
		// Leftovers are not judged: a --force run restores them first.
		leftovers: res.Leftovers,
		repos:     res.NestedRepos,
		dirs:      res.Dirs,
		young:     cfg.keepWithinRule(guards, cfg.Excludes),
	}
	if cfg.OnNote != nil {
		for _, n := range res.Notes {
			cfg.OnNote(scope, n)
		}
	}
	// The scan's own slice is filtered in place: a second slice of
	// records would cost 96 bytes per file.
	sc.files = res.Files[:0]
	sc.input.Paths = make([]skill.Entry, 0, len(res.Files)) // one allocation, not a growth series
	prefault.Slice(sc.input.Paths)
	for _, f := range res.Files {
		if cfg.OnFile != nil {
			cfg.OnFile(scope, f)
		}
		switch {
		case f.Size > maxSize || f.Timestamp > maxSize || f.Timestamp < -maxSize:
			sc.errs = append(sc.errs, fserr.New(fserr.OpJudge, f.Path, fserr.ErrTooLarge))
			continue
		}
		sc.files = append(sc.files, f)
		switch f.TimestampSource {
		case scan.SourceMetadata:
			sc.sources.Metadata++
		case scan.SourceRun:
			sc.sources.Run++
		default:
			sc.sources.Mtime++
		}
		if isTracked(cfg, f.Path) {
			sc.tracked++
			continue
		}
		if sc.young.protects(f.Path, f.Timestamp) {
			sc.fresh++
			continue
		}
		sc.input.Paths = append(sc.input.Paths, skill.Entry{Path: f.Path, SizeBytes: uint64(f.Size), Mtime: f.Timestamp, MtimeKnown: true})
	}
	return sc
}

// engineWarnings keeps the engine's warnings a river gc user can act on,
// in river gc's words, and adds one for names the engine could not judge.
// Warnings about guards are dropped: river gc supplied those guards itself.
func engineWarnings(scope skill.Scope, res skill.Result, sc scopeScan) []Warning {
	var ws []Warning
	if len(sc.repos) > 0 {
		ws = append(ws, Warning{Kind: WarnNestedRepo, Scope: scope, Path: sc.repos[0], N: len(sc.repos)})
	}
	// An evaluated result counts these same files as out of scope (scanned
	// paths are distinct, and a file has no children to make the engine
	// take it for a directory), so a count of zero spares the second pass.
	// A bucket key ending in '/' that holds bytes is a file the engine
	// takes for a directory (decision 231): named here too.
	if !res.Evaluated || res.Counts.OutOfScope > 0 || res.Counts.Duplicates > 0 || res.Counts.Directories > 0 {
		if first, n := unjudgeable(scope, sc.input.Paths); n > 0 {
			ws = append(ws, Warning{Kind: WarnUnjudgeableName, Scope: scope, Path: first, N: n})
		}
	}
	for _, w := range res.Warnings {
		switch w.Kind {
		case skill.WarnMtimeInconsistent:
			ws = append(ws, splitInconsistent(scope, sc.input)...)
		case skill.WarnAggressive:
			if allByAge(res.Removed) {
				continue
			}
			ws = append(ws, Warning{Kind: WarnAggressive, Scope: scope, N: w.Remove, Total: w.Total})
		}
	}
	return ws
}

// unjudgeable returns the first (byte order) and the number of paths the
// engine counts as out of scope: names that are not canonical (such as
// ones holding a backslash) or whose NFC form leaves the scope — and
// every entry whose name another entry of the store shares (the same
// memory id twice; decision 109), which the engine keeps unjudged. They
// are kept, and named so that nobody wonders where they went.
func unjudgeable(scope skill.Scope, entries []skill.Entry) (first string, n int) {
	var bad []string
	seen := make(map[string]int, len(entries))
	for _, e := range entries {
		seen[e.Path]++
	}
	parent := parents(entries)
	for _, e := range entries {
		if !skill.Canonical(e.Path) || !scope.InScope(norm.NFC.String(e.Path)) || seen[e.Path] > 1 || parent[e.Path] {
			bad = append(bad, e.Path)
		}
	}
	if len(bad) == 0 {
		return "", 0
	}
	return slices.Min(bad), len(bad)
}

// parents returns the paths that another path continues with "/": a
// bucket holds both a key and keys below it (x and x/y), which no file
// system can; the engine takes such a path for a directory and judges it
// not at all, so river gc keeps it and names it.
func parents(entries []skill.Entry) map[string]bool {
	paths := make([]string, len(entries))
	for i, e := range entries {
		paths[i] = e.Path
	}
	slices.Sort(paths)
	var out map[string]bool
	for i, p := range paths {
		// p+"/…" sorts after p, past the paths that continue p with a
		// byte below '/': find the first at or after p+"/".
		j, _ := slices.BinarySearch(paths[i+1:], p+"/")
		if k := i + 1 + j; k < len(paths) && strings.HasPrefix(paths[k], p+"/") {
			if out == nil {
				out = map[string]bool{}
			}
			out[p] = true
		}
	}
	return out
}

// isTracked reports whether a file is protected as tracked: in the git
// index, or a .gitkeep/.keep placeholder anywhere.
func isTracked(cfg Config, p string) bool {
	return keepName(p) || (cfg.Tracked != nil && cfg.Tracked.Contains(p))
}

// flagged reports whether paths[i] or an entry of the same path beside it
// is Guarded: an entry scope's live entries are guarded by that flag, not
// by a hard guard naming them, and its entries come in name order, so an
// entry of a live one's name (a twin) is next to it, as skipped as when
// the live one's name was a guard.
func flagged(paths []skill.Entry, i int) bool {
	for k := i; k >= 0 && paths[k].Path == paths[i].Path; k-- {
		if paths[k].Guarded {
			return true
		}
	}
	for k := i + 1; k < len(paths) && paths[k].Path == paths[i].Path; k++ {
		if paths[k].Guarded {
			return true
		}
	}
	return false
}

// splitInconsistent words the engine's one "mtime inconsistent" count as
// river gc's two: timestamps at or before 1970 (unusable: an mtime of 0
// is what a broken extractor or a reset clock leaves) and timestamps
// after --now (in the future). It finds the same entries the engine set
// aside: judgeable, in scope, neither guarded nor excluded.
func splitInconsistent(scope skill.Scope, in skill.Input) []Warning {
	m, _ := gitignore.Compile(in.Excludes) // validated by the caller
	var unusable, future Warning
	unusable = Warning{Kind: WarnUnusableTimestamp, Scope: scope}
	future = Warning{Kind: WarnFutureTimestamp, Scope: scope}
	for i, e := range in.Paths {
		if e.Mtime > 0 && e.Mtime <= in.Now {
			continue
		}
		nfc := norm.NFC.String(e.Path)
		if !skill.Canonical(e.Path) || !scope.InScope(nfc) || guarded(in.HardGuards, nfc) || flagged(in.Paths, i) || m.Match(nfc) {
			continue
		}
		w := &future
		if e.Mtime <= 0 {
			w = &unusable
		}
		if w.N == 0 || e.Path < w.Path {
			w.Path = e.Path
		}
		w.N++
	}
	var ws []Warning
	for _, w := range []Warning{unusable, future} {
		if w.N > 0 {
			ws = append(ws, w)
		}
	}
	return ws
}
