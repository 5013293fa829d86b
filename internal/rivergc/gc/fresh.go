//go:build linux

package gc

import (
	"golang.org/x/text/unicode/norm"

	"github.com/plangate-gc/plangate-gc/internal/gitignore"
	"github.com/plangate-gc/plangate-gc/skill"
)

// FreshAge is the age, in seconds, below which a file removed by the
// count or size limit is worth a warning (SPEC B7: 24 hours): such a file
// may belong to work still going on, and nothing about its age asked for
// it to go.
const FreshAge = 86400

// freshWarning is the warning for the removals of one scope that the
// count or size limit takes while they are younger than FreshAge: how
// many, the youngest (Path, Age in seconds) and which limits took them
// (Target: "count", "size" or "count,size"), so that the summary can name
// the per-scope flag that keeps them. None when there are none.
func freshWarning(scope skill.Scope, removed []skill.Decision, stamps []Stamp, now int64) []Warning {
	w := Warning{Kind: WarnFreshRemoved, Scope: scope, Age: -1}
	count, size := false, false
	for k, d := range removed {
		if d.Reason == skill.ReasonAge || k >= len(stamps) {
			continue
		}
		age := now - stamps[k].Timestamp
		if age >= FreshAge {
			continue
		}
		w.N++
		count = count || d.Reason == skill.ReasonCount
		size = size || d.Reason == skill.ReasonSize
		if w.Age < 0 || age < w.Age || (age == w.Age && d.Path < w.Path) {
			w.Age, w.Path = max(age, 0), d.Path
		}
	}
	switch {
	case w.N == 0:
		return nil
	case count && size:
		w.Target = "count,size"
	case count:
		w.Target = "count"
	default:
		w.Target = "size"
	}
	return []Warning{w}
}

// allByAge reports whether every removal is past the age limit: then
// the count and size limits took nothing the age limit would have kept,
// and removing most of a scope is no sign of a too-strict policy (SPEC
// B7: no "more than 80%" warning for a tree of old files).
func allByAge(removed []skill.Decision) bool {
	for _, d := range removed {
		if d.Reason != skill.ReasonAge {
			return false
		}
	}
	return true
}

// keepWithin is --keep-within's rule for one scope (SPEC B9): a file or
// entry whose timestamp lies less than within seconds before now (and
// not after it) is kept whatever the limits say, and set aside before
// the engine as tracked files are: it takes no place in the count or
// size limit. A file another rule protects (a single source, an
// --exclude, a live entry) keeps that rule's name. nil: no
// --keep-within.
type keepWithin struct {
	now, within int64
	guards      []string
	excludes    *gitignore.Matcher
}

// keepWithinRule is the scope's rule, nil without --keep-within.
func (cfg Config) keepWithinRule(guards, excludes []string) *keepWithin {
	if cfg.KeepWithin <= 0 {
		return nil
	}
	m, _ := gitignore.Compile(excludes) // validated by the caller
	return &keepWithin{now: cfg.Now, within: cfg.KeepWithin, guards: guards, excludes: m}
}

// young reports whether a timestamp is within the rule's span.
func (k *keepWithin) young(ts int64) bool {
	return k != nil && ts <= k.now && k.now-ts < k.within
}

// protects reports whether the rule keeps the file at p with timestamp
// ts: young, and kept by no other rule.
func (k *keepWithin) protects(p string, ts int64) bool {
	if !k.young(ts) {
		return false
	}
	nfc := norm.NFC.String(p)
	return !guarded(k.guards, nfc) && !k.excludes.Match(nfc)
}
