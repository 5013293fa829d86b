package fserr

import "strings"

// OpPlan is applying a reviewed plan (--apply, SPEC J2): a planned item
// that was not removed, and why.
const OpPlan Op = "plan"

// PlanChangedError: a planned item is no longer what was planned; Fields
// name what differs ("size", "mtime", "dev", "ino", "ctime", "etag",
// "bytes"). It is kept.
type PlanChangedError struct{ Fields []string }

func (e *PlanChangedError) Error() string {
	return "changed since planned: " + strings.Join(e.Fields, ", ")
}

// PlanKeptError: a planned item the run keeps now, though it is still what
// was planned: Rule is the verdict that keeps it ("tracked", "excluded",
// "guarded", "live", "keep", …, gc's Verdict names).
type PlanKeptError struct{ Rule string }

func (e *PlanKeptError) Error() string { return "kept now (" + e.Rule + "), though planned" }
