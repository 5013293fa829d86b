//go:build linux

package gc

import (
	"context"
	"maps"
	"path"
	"slices"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/backend/local"
	"github.com/plangate-gc/plangate-gc/internal/backend/local/journal"
	"github.com/plangate-gc/plangate-gc/internal/backend/local/sweep"
	"github.com/plangate-gc/plangate-gc/internal/backend/record"
	"github.com/plangate-gc/plangate-gc/skill"
)

// heldDir is a directory a killed --force run held whole (sweep's
// Options.Hold) that this run found still under its private name.
type heldDir struct {
	private string // root-relative
	files   int    // regular files below it
}

// findHeld lists the directories killed runs held whole that are still
// beneath the root, whatever this run's scopes and excludes (SPEC B8.8):
// the leftovers of the scopes scanned that are such directories, and,
// for scopes this run does not select, the private name of every
// ancestor of a path a journal names and that is no longer in place
// (the lookup of decision 290: a run journals a directory's files before
// it holds it), and the private name of every scope's own directory (a
// run exchanges one for a fresh directory before its first deletion
// there, decision 360). One restorable leaves alone is not river gc's and is not
// listed; a dry-run beside a live --force lists none (its holds are in
// flight, not a killed run's). The original path of every file below
// them is given to ex, so that an --exclude naming a held directory
// matches; used lists the patterns only those paths matched.
func findHeld(cfg Config, fd int, leftovers []string, ex *excludeUse) (held []heldDir, used []string) {
	if cfg.Mode != Force {
		if live, err := sweep.Held(fd); err != nil || live {
			return nil, nil
		}
	}
	found := map[string]struct{}{} // candidate private paths
	for _, l := range leftovers {
		found[l] = struct{}{}
	}
	for _, d := range exchanged() {
		if ad, an := path.Split(d); local.IsDir(fd, ad+sweep.PrivatePrefix+an) {
			found[ad+sweep.PrivatePrefix+an] = struct{}{}
		}
	}
	journals := journal.New(fd, func(p string) []string {
		for a := path.Dir(p); a != "."; a = path.Dir(a) {
			ad, an := path.Split(a)
			found[ad+sweep.PrivatePrefix+an] = struct{}{}
		}
		return nil
	})
	record.Recover(context.Background(), journals, nil, nil, time.Now()) //nolint:errcheck // read again, and reported, by the session's recover
	if len(found) == 0 {
		return nil, nil
	}
	privates := slices.Sorted(maps.Keys(found))
	unused := ex.unusedPatterns()
	var batch []skill.Entry
	for _, l := range restorable(cfg, privates) {
		n, ok := sweep.HeldFiles(fd, l, func(orig string) {
			if batch = append(batch, skill.Entry{Path: orig}); len(batch) == 1024 {
				ex.see(batch)
				batch = batch[:0]
			}
		})
		if ok {
			held = append(held, heldDir{private: l, files: n})
		}
	}
	ex.see(batch)
	now := ex.unusedPatterns()
	for _, p := range unused {
		if !slices.Contains(now, p) {
			used = append(used, p)
		}
	}
	return held, used
}

// withHeld is the leftovers and the private paths of held, sorted and
// without repeats.
func withHeld(leftovers []string, held []heldDir) []string {
	out := slices.Clone(leftovers)
	for _, h := range held {
		out = append(out, h.private)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// heldWarnings names each held directory with its count (SPEC B8.8):
// Target "restored" when this run put it back, "stays" when it tried and
// could not (errors[] says why), "" when a --force run will put it back.
// A --force run's second judgement sees the directories put back as
// ordinary ones, so an --exclude that only a held directory matched
// (used) is dropped from the unused ones there too.
func heldWarnings(ws []Warning, held []heldDir, used []string, restored sweep.Report, force bool) []Warning {
	ws = slices.DeleteFunc(ws, func(w Warning) bool { return w.Kind == WarnUnusedExclude && slices.Contains(used, w.Path) })
	for _, h := range held {
		w := Warning{Kind: WarnHeldDir, Path: h.private, N: h.files}
		switch {
		case !force:
		case slices.Contains(restored.Restored, h.private):
			w.Target = "restored"
		case slices.Contains(restored.Gone, h.private):
			continue // vanished meanwhile: nothing of it is hidden
		default:
			w.Target = "stays"
		}
		ws = append(ws, w)
	}
	return ws
}

// unusedPatterns lists the patterns that matched nothing so far.
func (u *excludeUse) unusedPatterns() []string {
	var out []string
	for _, i := range u.unused {
		out = append(out, u.uniq[i])
	}
	return out
}
