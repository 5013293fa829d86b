//go:build linux

package gc

import (
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/plangate-gc/plangate-gc/internal/gitignore"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/stores"
	"github.com/plangate-gc/plangate-gc/skill"
)

// Explain answers "why" for each path (--explain): it scans and judges the
// configured scopes exactly as a dry-run would, deletes nothing, and
// returns one Explanation per path, in the order given. A path is taken
// relative to the working directory when that places it inside the root,
// and relative to the root otherwise.
func Explain(cfg Config, paths []string) ([]Explanation, error) {
	cfg.Mode = DryRun
	cfg.explain = true
	j, err := judge(cfg)
	if err != nil {
		return nil, err
	}
	out := make([]Explanation, 0, len(paths))
	for _, p := range paths {
		rel, ok := cfg.Root.tree.relative(cfg.Root.Path, p)
		if !ok {
			rel = filepath.ToSlash(filepath.Clean(p))
		}
		ex := Explanation{Path: rel, Verdict: VerdictNotFound}
		if !ok && outsideRoot(cfg.Root, p) {
			ex.Verdict, ex.Root = VerdictOutsideRoot, cfg.Root.Path
			out = append(out, ex)
			continue
		}
		if fv, ok := j.files[entryName(j.files, rel)]; ok {
			ex = fv.explain(cfg.Now)
			ex.Retention, ex.KeepWithin = cfg.retentionFor(fv.scope), cfg.KeepWithin
		} else {
			for _, e := range j.out.Errors {
				if e.Path == rel {
					ex.Verdict, ex.Err = VerdictError, e
				}
			}
			for _, so := range j.out.Scopes {
				for _, r := range so.NestedRepos {
					if ex.Verdict == VerdictNotFound && (rel == r || strings.HasPrefix(rel, r+"/")) {
						ex.Verdict, ex.Scope = VerdictNestedRepo, so.Scope
					}
				}
			}
			if ex.Verdict == VerdictNotFound {
				ex = j.examine(cfg, ex) // what the path is, never followed, where the root can say
			}
		}
		hints(cfg, &ex)
		out = append(out, ex)
	}
	return out, nil
}

// entryName is the judged name a command-line path stands for: itself,
// or, for "<store>#<id>" that names no entry as it is, the entry whose id
// that is (the printed name escapes it; decision 240).
func entryName(files map[string]fileVerdict, rel string) string {
	if _, ok := files[rel]; ok {
		return rel
	}
	for _, s := range skill.Scopes() {
		if store := s.Store(); store != "" && strings.HasPrefix(rel, store+"#") {
			return stores.MemoryName(store, rel[len(store)+1:])
		}
	}
	return rel
}

// hints adds to an answer the scopes the user may have meant: a scope
// not selected that covers the path (when no selected one judged it),
// and the entry scope whose store the path is (SPEC B7).
func hints(cfg Config, ex *Explanation) {
	nfc := norm.NFC.String(ex.Path)
	for _, s := range skill.Scopes() {
		if s.Store() == nfc {
			ex.EntriesAs, ex.EntriesSelected = s, slices.Contains(cfg.Scopes, s)
		}
	}
	switch ex.Verdict {
	case VerdictNotInScope, VerdictOutside, VerdictNotFound, VerdictDirectory:
	default:
		return
	}
	for _, s := range skill.Scopes() {
		if s.Store() == "" && !slices.Contains(cfg.Scopes, s) && (s.InScope(nfc) || slices.Contains(s.Dirs(), nfc)) {
			ex.OptIn = s
			return
		}
	}
}

// outsideRoot reports whether a command-line path names a place outside
// the root: its absolute form (from the working directory) is not the
// root's real name nor below it. Only for the answer's words: a path
// inside is found by identity (Root.Relative).
func outsideRoot(root *Root, p string) bool {
	abs, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	top, err := filepath.Abs(root.Path)
	if err == nil {
		top, err = filepath.EvalSymlinks(top)
	}
	if err != nil {
		return false
	}
	if real, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(real, filepath.Base(abs))
	}
	rel, err := filepath.Rel(top, abs)
	return err == nil && (rel == ".." || strings.HasPrefix(rel, "../"))
}

// examine answers for a path that was not judged (SPEC B5: an answer for
// every path): at or below a single source; else as it is on disk, never
// following its last component: a directory (with what was judged below
// it), a link, a special file, a file outside every selected scope; a
// path that does not exist is not found, or not in any scope.
func (j *judgement) examine(cfg Config, ex Explanation) Explanation {
	rel := ex.Path
	if _, _, known := cfg.Root.tree.kindAt("."); !known {
		return ex // a bucket: nothing to examine beyond what was listed
	}
	for _, s := range skill.Scopes() { // an entry name of a store (SPEC D2)
		if store := s.Store(); store != "" && strings.HasPrefix(rel, store+"#") {
			ex.Scope = s
			if !slices.Contains(cfg.Scopes, s) {
				ex.Verdict = VerdictEntryScopeOff
			} else {
				ex.Verdict = VerdictNoEntry
			}
			return ex
		}
	}
	for _, s := range cfg.Scopes {
		for _, src := range s.SingleSources() {
			if rel == src || strings.HasPrefix(rel, src+"/") {
				ex.Verdict, ex.Scope, ex.SingleSource = VerdictInSource, s, src
				return ex
			}
		}
	}
	if rel == ".." || strings.HasPrefix(rel, "../") || strings.HasPrefix(rel, "/") {
		ex.Verdict = VerdictNotInScope
		return ex
	}
	k, err, _ := cfg.Root.tree.kindAt(rel)
	switch {
	case err != nil && !inSelected(cfg.Scopes, rel):
		ex.Verdict = VerdictNotInScope
	case err != nil:
		ex.Verdict = VerdictNotFound
	case k.String() == "directory":
		ex.Verdict = VerdictDirectory
		prefix := strings.TrimSuffix(rel, "/") + "/"
		if rel == "." {
			prefix = ""
		}
		for p, fv := range j.files {
			if strings.HasPrefix(p, prefix) {
				ex.Below++
				if fv.verdict == VerdictRemove {
					ex.BelowRemoved++
				}
			}
		}
		ex.RunDirGoes, ex.RunDirsBelow = emptiedAt(j.runDirs, rel, prefix)
	case k.String() == "symlink":
		ex.Verdict = VerdictSymlink
	case k.String() != "regular":
		ex.Verdict = VerdictNotRegular
	default:
		ex.Verdict = VerdictOutside
	}
	return ex
}

// emptiedAt says whether the eval-run directory rel is one the removals
// empty (and so removes with them, SPEC B7), and how many such
// directories lie at or below it (prefix is rel's, with its "/").
func emptiedAt(dirs []runDir, rel, prefix string) (goes bool, n int) {
	for _, d := range dirs {
		if d.path == rel || strings.HasPrefix(d.path, prefix) {
			n++
			goes = goes || d.path == rel
		}
	}
	return goes, n
}

// inSelected reports whether rel lies below a directory of a selected
// scope (the engine's scope rules decide the rest).
func inSelected(scopes []skill.Scope, rel string) bool {
	for _, s := range scopes {
		if st := s.Store(); st != "" && strings.HasPrefix(rel, st+"#") {
			return true
		}
		for _, d := range s.Dirs() {
			if strings.HasPrefix(rel, d+"/") {
				return true
			}
		}
	}
	return false
}

// explain turns a recorded verdict into an Explanation.
func (fv fileVerdict) explain(now int64) Explanation {
	f := fv.file
	age := now - f.Timestamp
	days := age / 86400
	if age < 0 && age%86400 != 0 {
		days--
	}
	return Explanation{Path: f.Path, Scope: fv.scope, Verdict: fv.verdict, SizeBytes: uint64(f.Size),
		Timestamp: f.Timestamp, Source: f.TimestampSource, AgeDays: days, Decision: fv.decision}
}

// classify records, for --explain, the one rule that decided each file
// of a judged scope, in the engine's order (SPEC A7); with
// Config.ListProtected, the protected files and their rule go to the
// outcome (--verbose).
func (j *judgement) classify(scope skill.Scope, sc scopeScan, res skill.Result, cfg Config) {
	if !cfg.explain && !cfg.ListProtected && cfg.Plan == nil {
		return
	}
	removed := make(map[string]skill.Decision, len(res.Removed))
	for _, d := range res.Removed {
		removed[d.Path] = d
	}
	m, _ := gitignore.Compile(sc.input.Excludes) // validated by the caller; a store's twins (decision 240)
	live := map[string]bool{}                    // an entry scope's guards are exact names: one lookup each
	if scope.Store() != "" {
		for _, g := range sc.input.HardGuards {
			live[g] = true
		}
		for i := range sc.fileCount() { // guarded by their flag (store.go): a twin of one is kept as live too
			if sc.entries.Live(i) {
				live[sc.file(i).Path] = true
			}
		}
	}
	scanned := make([]skill.Entry, sc.fileCount()) // the engine's input is spent by now (gc.go)
	for i := range scanned {
		scanned[i].Path = sc.file(i).Path
	}
	parent := parents(scanned)
	for i := range sc.fileCount() {
		f := sc.file(i)
		fv := fileVerdict{scope: scope, file: f, verdict: VerdictKeep}
		nfc := norm.NFC.String(f.Path)
		switch d, isRemoved := removed[f.Path]; {
		case isTracked(cfg, f.Path):
			fv.verdict = VerdictTracked
		case sc.young.protects(f.Path, f.Timestamp) && (sc.entries == nil || !sc.entries.Live(i)):
			fv.verdict = VerdictFresh
		case !skill.Canonical(f.Path) || !scope.InScope(nfc) || parent[f.Path]:
			fv.verdict = VerdictUnjudgeable
		case scope.Store() != "" && live[nfc]:
			fv.verdict = liveVerdict(sc.entries, i)
		case scope.Store() == "" && guarded(sc.input.HardGuards, nfc):
			fv.verdict = VerdictGuarded
		case m.Match(nfc):
			fv.verdict = VerdictExcluded
		case f.Timestamp <= 0:
			fv.verdict = VerdictUnusable
		case f.Timestamp > cfg.Now:
			fv.verdict = VerdictFuture
		case isRemoved:
			fv.verdict, fv.decision = VerdictRemove, d
		}
		if cfg.explain {
			j.files[f.Path] = fv
		}
		if cfg.Plan != nil {
			j.notePlanned(cfg, fv)
		}
		switch fv.verdict {
		case VerdictTracked, VerdictFresh, VerdictLive, VerdictNewestTwo, VerdictUnreadableLine, VerdictGuarded, VerdictExcluded:
			if cfg.ListProtected {
				j.out.ProtectedFiles = append(j.out.ProtectedFiles, ProtectedFile{Path: f.Path, Scope: scope, Rule: fv.verdict})
			}
		}
	}
}

// guarded reports whether a hard guard covers path (SPEC A6).
func guarded(guards []string, p string) bool {
	for _, g := range guards {
		g = strings.TrimSuffix(strings.TrimSuffix(g, "/**"), "/")
		if p == g || strings.HasPrefix(p, g+"/") {
			return true
		}
	}
	return false
}

// liveVerdict is the rule that keeps the k-th entry (in name order) of
// an entry scope's store, a guard (decision 243): a ledger line is kept as
// one of the newest two or as unreadable, never as a "live entry".
func liveVerdict(x *stores.Index, k int) Verdict {
	if x == nil || x.Store().Path != skill.ScopeEvalLedger.Store() {
		return VerdictLive
	}
	if x.Entry(k).Unreadable {
		return VerdictUnreadableLine
	}
	return VerdictNewestTwo
}
