//go:build linux

package gc

import (
	"path/filepath"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/plangate-gc/plangate-gc/internal/gitignore"
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
		rel, ok := cfg.Root.Relative(p)
		if !ok {
			rel = filepath.ToSlash(filepath.Clean(p))
		}
		ex := Explanation{Path: rel, Verdict: VerdictNotFound}
		if fv, ok := j.files[rel]; ok {
			ex = fv.explain(cfg.Now)
			ex.Retention = cfg.retentionFor(fv.scope)
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
			if ex.Verdict == VerdictNotFound && !inSelected(cfg.Scopes, rel) {
				ex.Verdict = VerdictNotInScope
			}
		}
		out = append(out, ex)
	}
	return out, nil
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

// classify records, for --explain only, the one rule that decided each
// file of a judged scope, in the engine's order (SPEC A7).
func (j *judgement) classify(scope skill.Scope, sc scopeScan, res skill.Result, cfg Config) {
	if !cfg.explain {
		return
	}
	removed := make(map[string]skill.Decision, len(res.Removed))
	for _, d := range res.Removed {
		removed[d.Path] = d
	}
	m, _ := gitignore.Compile(cfg.Excludes) // validated by the caller
	live := map[string]bool{}               // an entry scope's guards are exact names: one lookup each
	if scope.Store() != "" {
		for _, g := range sc.input.HardGuards {
			live[g] = true
		}
	}
	for _, f := range sc.files {
		fv := fileVerdict{scope: scope, file: f, verdict: VerdictKeep}
		nfc := norm.NFC.String(f.Path)
		switch d, isRemoved := removed[f.Path]; {
		case isTracked(cfg, f.Path):
			fv.verdict = VerdictTracked
		case !skill.Canonical(f.Path) || !scope.InScope(nfc):
			fv.verdict = VerdictUnjudgeable
		case scope.Store() != "" && live[nfc]:
			fv.verdict = VerdictLive
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
		j.files[f.Path] = fv
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
