//go:build linux

package gc

import (
	"crypto/sha256"
	"encoding/hex"
	"path"
	"slices"
	"strings"

	"github.com/plangate-gc/plangate-gc/internal/backend/local/sweep"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/plan"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/stores"
	"github.com/plangate-gc/plangate-gc/skill"
)

// The warnings of an apply (SPEC J2).
const (
	// WarnPlanApplied: every one of the plan's N items is gone already:
	// the plan was applied before, and nothing was deleted.
	WarnPlanApplied WarningKind = "plan-applied"
	// WarnPlanGone: N of the plan's Total items were gone already; Path
	// is the first.
	WarnPlanGone WarningKind = "plan-gone"
	// WarnNotPlanned: N files or entries the policy removes now are not
	// in the plan: they are kept (a new plan would list them). Path is
	// the first.
	WarnNotPlanned WarningKind = "not-planned"
)

// planStep is the plan's one step in a run, after every scope is judged:
// with Config.PlanOut it records the removals with their identities
// (Outcome.Plan); with Config.Plan it narrows the removals to the plan's
// items that are still what was planned (narrowToPlan).
func (j *judgement) planStep(cfg Config) {
	switch {
	case cfg.Plan != nil:
		j.narrowToPlan(cfg)
	case cfg.PlanOut:
		ids := j.identities(cfg)
		p := &plan.Plan{Now: cfg.Now, KeepWithin: max(cfg.KeepWithin, 0), Timestamp: "metadata", Scopes: cfg.Scopes, Retention: cfg.Retention,
			PerScope: map[skill.Scope]skill.Retention{}, Excludes: cfg.Excludes}
		if !cfg.Metadata {
			p.Timestamp = "mtime"
		}
		for _, s := range cfg.Scopes {
			p.PerScope[s] = cfg.retentionFor(s)
		}
		for rm := range j.out.Removed() {
			it := plan.Item{Path: rm.Path, SizeBytes: rm.SizeBytes, Reason: rm.Reason, Identity: ids[rm.Path]}
			if e := rm.Entry; e != nil {
				it.Entry = &plan.Entry{Store: e.Store, ID: e.ID, Line: e.Line, Timestamp: e.Timestamp}
			}
			p.Items = append(p.Items, it)
		}
		j.out.Plan = p
	}
}

// identities is the identity of every removal as judged: a file's from
// its scan (and its ETag on a bucket), an entry's from its bytes.
func (j *judgement) identities(cfg Config) map[string]plan.Identity {
	ids := make(map[string]plan.Identity, len(j.targets))
	for _, t := range j.targets {
		ids[t.Path] = plan.Identity{Size: t.Size, MtimeNs: t.MtimeNs, Dev: t.Dev, Ino: t.Ino, CtimeNs: t.CtimeNs, ETag: cfg.Root.tree.tag(t.Path)}
	}
	for _, so := range j.out.Scopes {
		if so.Entries == nil {
			continue
		}
		for k, d := range so.Removed {
			ids[d.Path] = entryIdentity(so.Entries, int(so.at[k]))
		}
	}
	return ids
}

// entryIdentity is the k-th entry's (in name order) identity: its bytes.
func entryIdentity(x *stores.Index, k int) plan.Identity {
	b := x.Bytes(k)
	sum := sha256.Sum256(b)
	return plan.Identity{Size: int64(len(b)), SHA256: hex.EncodeToString(sum[:])}
}

// narrowToPlan keeps, of the removals judged now, only the plan's items
// whose identity is still the planned one (SPEC J2): nothing outside the
// plan is removed, whatever the tree holds now. A planned item that is
// judged removable but changed, or that the run keeps now (tracked,
// excluded, a single source, a live entry, the policy), is an errors[]
// entry naming why; one gone already is counted (WarnPlanGone, or
// WarnPlanApplied when all are); what is removable now but not planned
// is kept and counted (WarnNotPlanned). A directory is held whole only
// when every file below it is still planned.
func (j *judgement) narrowToPlan(cfg Config) {
	j.out.Applied = cfg.Plan
	items := make(map[string]*plan.Item, len(cfg.Plan.Items))
	for i := range cfg.Plan.Items {
		items[cfg.Plan.Items[i].Path] = &cfg.Plan.Items[i]
	}
	ids := j.identities(cfg)
	putBack := map[string]bool{}
	for _, p := range cfg.restored {
		dir, name := path.Split(p)
		putBack[dir+strings.TrimPrefix(name, sweep.PrivatePrefix)] = true
	}
	keep := make(map[string]bool, len(items))
	matched := make(map[string]bool, len(items))
	notPlanned, firstNotPlanned := 0, ""
	for i := range j.out.Scopes {
		so := &j.out.Scopes[i]
		var marks []bool
		if so.Entries != nil {
			marks = so.Entries.Marks()
		}
		n := 0
		for k, d := range so.Removed {
			it, planned := items[d.Path]
			var diff []string
			if planned {
				matched[d.Path] = true
				diff = it.Identity.Diff(ids[d.Path])
				if putBack[d.Path] && slices.Equal(diff, []string{"ctime"}) {
					diff = nil // river gc's own two renames (held, put back) changed it
				}
			}
			switch {
			case !planned:
				if notPlanned++; firstNotPlanned == "" || d.Path < firstNotPlanned {
					firstNotPlanned = d.Path
				}
			case len(diff) > 0:
				j.out.Errors = append(j.out.Errors, fserr.New(fserr.OpPlan, d.Path, &fserr.PlanChangedError{Fields: diff}))
			default:
				keep[d.Path] = true
				so.Removed[n], so.Stamps[n] = d, so.Stamps[k]
				if marks != nil {
					so.at[n] = so.at[k]
					so.Entries.Mark(marks, int(so.at[k]))
				}
				n++
				continue
			}
			so.Kept++
			so.KeptBytes = so.KeptBytes.Add(d.SizeBytes)
		}
		so.Removed, so.Stamps = so.Removed[:n], so.Stamps[:n]
		if marks != nil {
			so.at = so.at[:n]
			so.StoreFreed = 0
			if n > 0 {
				so.StoreFreed = uint64(so.Entries.Freed(marks))
			}
			j.narrowRewrite(so.Scope, marks, n)
		}
	}
	var dropped []string
	j.targets = slices.DeleteFunc(j.targets, func(t sweep.Target) bool {
		if !keep[t.Path] {
			dropped = append(dropped, t.Path)
		}
		return !keep[t.Path]
	})
	j.holds = keepHolds(j.holds, dropped)
	j.unmatched(cfg, matched)
	if notPlanned > 0 {
		j.out.Warnings = append(j.out.Warnings, Warning{Kind: WarnNotPlanned, Path: firstNotPlanned, N: notPlanned})
	}
}

// keepHolds keeps the directories to hold whole (holds.go) below which
// no target was dropped: each still holds planned files only.
func keepHolds(holds, dropped []string) []string {
	slices.Sort(dropped)
	return slices.DeleteFunc(holds, func(h string) bool {
		i, _ := slices.BinarySearch(dropped, h+"/")
		return i < len(dropped) && strings.HasPrefix(dropped[i], h+"/")
	})
}

// narrowRewrite gives the entry scope's rewrite (--force) the planned
// entries' marks, or drops it when none is left.
func (j *judgement) narrowRewrite(scope skill.Scope, marks []bool, n int) {
	for i := range j.rewrites {
		if j.rewrites[i].scope == scope {
			j.rewrites[i].Removed, j.rewrites[i].Count = marks, n
		}
	}
	j.rewrites = slices.DeleteFunc(j.rewrites, func(r rewriteJob) bool { return r.Count == 0 })
}

// unmatched accounts for the planned items not judged removable now: an
// errors[] entry naming the rule that keeps each one still there (or
// what changed), a count of those gone.
func (j *judgement) unmatched(cfg Config, matched map[string]bool) {
	gone, firstGone := 0, ""
	for _, it := range cfg.Plan.Items {
		if matched[it.Path] {
			continue
		}
		fv, present := j.planKept[it.Path]
		if !present {
			if gone++; firstGone == "" {
				firstGone = it.Path
			}
			continue
		}
		now := plan.Identity{Size: fv.file.Size, MtimeNs: fv.file.MtimeNs, Dev: fv.file.Dev, Ino: fv.file.Ino, CtimeNs: fv.file.CtimeNs,
			ETag: cfg.Root.tree.tag(it.Path)}
		var err error = &fserr.PlanKeptError{Rule: string(fv.verdict)}
		if it.Entry == nil {
			if diff := it.Identity.Diff(now); len(diff) > 0 && !protects(fv.verdict) {
				err = &fserr.PlanChangedError{Fields: diff}
			}
		}
		j.out.Errors = append(j.out.Errors, fserr.New(fserr.OpPlan, it.Path, err))
	}
	switch {
	case gone > 0 && gone == len(cfg.Plan.Items):
		j.out.Warnings = append(j.out.Warnings, Warning{Kind: WarnPlanApplied, Path: firstGone, N: gone})
	case gone > 0:
		j.out.Warnings = append(j.out.Warnings, Warning{Kind: WarnPlanGone, Path: firstGone, N: gone, Total: len(cfg.Plan.Items)})
	}
}

// protects reports whether a verdict is a rule that keeps a file whatever
// its age: the reason to name before any change.
func protects(v Verdict) bool {
	switch v {
	case VerdictTracked, VerdictExcluded, VerdictGuarded, VerdictLive, VerdictNewestTwo, VerdictUnreadableLine, VerdictFresh:
		return true
	}
	return false
}

// notePlanned remembers, during an apply, the verdict of a planned path
// the run does not remove (classify), so that unmatched can say why.
func (j *judgement) notePlanned(cfg Config, fv fileVerdict) {
	if fv.verdict == VerdictRemove || !cfg.Plan.Has(fv.file.Path) {
		return
	}
	if j.planKept == nil {
		j.planKept = map[string]fileVerdict{}
	}
	j.planKept[fv.file.Path] = fv
}
