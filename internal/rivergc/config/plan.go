//go:build linux

package config

import (
	"errors"
	"os"
	"path/filepath"
	"slices"

	"github.com/plangate-gc/plangate-gc/internal/report"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/outfile"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/plan"
	"github.com/plangate-gc/plangate-gc/render"
)

// planFlags applies --plan-out and --apply (SPEC Part J) to the
// validated run. --plan-out is a dry-run and refuses
// --force; --apply takes the run's scopes, policy, --keep-within, --now
// and timestamp
// reading from the plan (a flag that sets one of them is a config error)
// and adds any --exclude to the plan's; a plan that is unreadable, of
// another format version, changed since written, or for another root is
// a config error, found before anything is locked or scanned.
func (c *Config) planFlags(set map[string]bool) error {
	if c.PlanOut == "" && c.Apply == "" {
		return nil
	}
	flag := "--plan-out"
	if c.Apply != "" {
		flag = "--apply"
	}
	switch {
	case c.PlanOut != "" && c.Apply != "":
		return Invalid("gc-cfg-plan-apply")
	case len(c.Explain) > 0:
		return Invalid("gc-cfg-explain-with", flag)
	case c.EmitInventory:
		return Invalid("gc-cfg-emit-with")
	case c.PlanOut != "" && c.Run.Mode == gc.Force:
		return Invalid("gc-cfg-plan-force")
	}
	if c.PlanOut != "" {
		if err := CheckOutputFiles(c.Run.Root, c.PlanOut, ""); err != nil {
			return AsPlanOut(err)
		}
		for _, other := range []struct{ name, path string }{{"--output-file", c.OutputFile}, {"--summary-file", c.SummaryFile}} {
			if other.path != "" && sameFile(other.path, c.PlanOut) {
				return Invalid("gc-cfg-plan-same", other.name)
			}
		}
		if err := os.MkdirAll(filepath.Dir(c.PlanOut), 0o755); err != nil {
			return &Error{Err: &outfile.Error{Flag: "plan-out", Path: c.PlanOut, Err: err}}
		}
		c.Run.PlanOut = true
		return nil
	}
	for _, f := range []struct {
		name string
		set  bool
	}{{"--scope", len(c.Scope) > 0}, {"--retention-days", len(c.RetentionDays) > 0}, {"--max-entries", len(c.MaxEntries) > 0},
		{"--max-size-mb", len(c.MaxSizeMb) > 0}, {"--now", set["now"]}, {"--timestamp", set["timestamp"]}, {"--keep-within", set["keep-within"]}} {
		if f.set {
			return Invalid("gc-cfg-apply-flag", f.name)
		}
	}
	p, err := readPlan(c.Apply)
	if err != nil {
		return err
	}
	if p.Root != c.RootName {
		return &Error{Err: &planFileError{path: c.Apply, err: &plan.Error{Kind: plan.KindRoot, Got: p.Root, Want: c.RootName}}}
	}
	r := &c.Run
	r.Plan, r.Scopes, r.Retention, r.PerScope, r.Now, r.KeepWithin = p, p.Scopes, p.Retention, p.PerScope, p.Now, p.KeepWithin
	r.Metadata = p.Timestamp == "metadata"
	excludes := slices.Clone(p.Excludes)
	for _, x := range r.Excludes {
		if !slices.Contains(excludes, x) {
			excludes = append(excludes, x)
		}
	}
	r.Excludes = excludes
	return nil
}

// readPlan reads and checks the plan file at path.
func readPlan(path string) (*plan.Plan, error) {
	data, err := os.ReadFile(path)
	if err == nil {
		var p *plan.Plan
		if p, err = plan.Decode(data); err == nil {
			return p, nil
		}
	}
	return nil, &Error{Err: &planFileError{path: path, err: err}}
}

// planFileError is a plan file that cannot be used: read, decoded or
// matched to the run's root.
type planFileError struct {
	path string
	err  error
}

func (e *planFileError) Error() string { return "--apply " + e.path + ": " + e.err.Error() }
func (e *planFileError) Unwrap() error { return e.err }

// words words a plan file's error in lang.
func (e *planFileError) words(lang render.Lang) string {
	name := report.Display(e.path)
	var pe *plan.Error
	if !errors.As(e.err, &pe) {
		return render.Message(lang, "gc-cfg-plan-read", name, report.DisplayText(e.err.Error()))
	}
	switch pe.Kind {
	case plan.KindVersion:
		return render.Message(lang, "gc-cfg-plan-version", name, report.Display(pe.Got), pe.Want)
	case plan.KindRoot:
		return render.Message(lang, "gc-cfg-plan-root", name, report.Display(pe.Got), report.Display(pe.Want))
	case plan.KindDigest:
		return render.Message(lang, "gc-cfg-plan-digest", name)
	}
	return render.Message(lang, "gc-cfg-plan-unreadable", name, report.DisplayText(pe.Err.Error()))
}

// AsPlanOut names --plan-out in an output-file refusal made for it.
func AsPlanOut(err error) error {
	var oe *outfile.Error
	if errors.As(err, &oe) {
		oe.Flag = "plan-out"
	}
	return err
}

// sameFile reports whether a and b name one file (existing or not).
func sameFile(a, b string) bool {
	if sa, err := os.Stat(a); err == nil {
		if sb, err := os.Stat(b); err == nil {
			return os.SameFile(sa, sb)
		}
	}
	aa, _ := filepath.Abs(a)
	ab, _ := filepath.Abs(b)
	return aa == ab
}
