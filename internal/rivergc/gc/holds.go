//go:build linux

package gc

import (
	"slices"
	"strings"

	"github.com/plangate-gc/plangate-gc/internal/backend/local/sweep"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/scan"
	"github.com/plangate-gc/plangate-gc/skill"
)

// minHold is the fewest targets below a directory for it to be held whole
// (sweep.Options.Hold): taking and putting back a hold costs five system
// calls, and a held file saves two of its four.
const minHold = 8

// holdDirs lists the directories of a scope that --force may hold whole
// while their files are deleted: those the scan listed to the end whose
// every entry is a target (ts, in path order) or such a directory, with
// at least minHold targets below them, outermost only; the scope's own
// directory among them is exchanged, not renamed (exchanged). Anything
// else in a directory — a file kept, protected, excluded, unjudgeable or
// too large, a symlink, a special file, a nested repository, a mount
// point, a directory not listed, a leftover — keeps it, and every
// directory above it, from being held.
func holdDirs(dirs []scan.Dir, ts []sweep.Target) []string {
	if len(dirs) == 0 || len(ts) < minHold {
		return nil
	}
	direct := make(map[string]int, len(dirs)) // targets directly in a directory
	for _, t := range ts {
		direct[dirOf(t.Path)]++
	}
	whole := map[string]int{}             // directory held whole → targets below it
	subs := map[string]int{}              // directory → its subdirectories held whole
	below := map[string]int{}             // directory → targets in those
	for i := len(dirs) - 1; i >= 0; i-- { // a directory's subdirectories sort after it
		d := dirs[i]
		if d.Entries != direct[d.Path]+subs[d.Path] {
			continue
		}
		n := direct[d.Path] + below[d.Path]
		whole[d.Path] = n
		up := dirOf(d.Path)
		subs[up]++
		below[up] += n
	}
	var out []string
	for p, n := range whole {
		if _, up := whole[dirOf(p)]; !up && n >= minHold {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// exchanged lists the directories that --force, when it holds one whole,
// exchanges for a fresh empty directory instead of renaming it
// (sweep.Options.Exchange, decision 360): every scope's own, which River
// Review's writers expect to find (a mkdir -p, then a file written in it).
func exchanged() []string {
	var out []string
	for _, sc := range skill.Scopes() {
		if sc != skill.ScopeReviewArtifacts { // a listing of artifacts/, never held
			out = append(out, sc.Dirs()...)
		}
	}
	return out
}

// dirOf is the directory part of a root-relative path in scan's canonical
// form (path.Dir without its Clean: the path is clean already).
func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return "."
}
