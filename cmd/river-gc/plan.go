//go:build linux

package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/plangate-gc/plangate-gc/internal/report"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/outfile"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/plan"
	"github.com/plangate-gc/plangate-gc/render"
)

// planned applies --plan-out and --apply (SPEC Part J) to a validated
// configuration; on a config error it closes the root.
func (c *cli) planned(cfg gc.Config, set map[string]bool) (gc.Config, error) {
	cfg, err := c.planFlags(cfg, set)
	if err != nil {
		cfg.Root.Close()
	}
	return cfg, err
}

// planFlags is planned's work. --plan-out is a dry-run and refuses
// --force; --apply takes the run's scopes, policy, --keep-within, --now
// and timestamp
// reading from the plan (a flag that sets one of them is a config error)
// and adds any --exclude to the plan's; a plan that is unreadable, of
// another format version, changed since written, or for another root is
// a config error, found before anything is locked or scanned.
func (c *cli) planFlags(cfg gc.Config, set map[string]bool) (gc.Config, error) {
	if c.PlanOut == "" && c.Apply == "" {
		return cfg, nil
	}
	flag := "--plan-out"
	if c.Apply != "" {
		flag = "--apply"
	}
	switch {
	case c.PlanOut != "" && c.Apply != "":
		return cfg, configErr("gc-cfg-plan-apply")
	case len(c.Explain) > 0:
		return cfg, configErr("gc-cfg-explain-with", flag)
	case c.EmitInventory:
		return cfg, configErr("gc-cfg-emit-with")
	case c.PlanOut != "" && cfg.Mode == gc.Force:
		return cfg, configErr("gc-cfg-plan-force")
	}
	if c.PlanOut != "" {
		if err := checkOutputFiles(cfg.Root, c.PlanOut, ""); err != nil {
			return cfg, asPlanOut(err)
		}
		for _, other := range []struct{ name, path string }{{"--output-file", c.OutputFile}, {"--summary-file", c.SummaryFile}} {
			if other.path != "" && sameFile(other.path, c.PlanOut) {
				return cfg, configErr("gc-cfg-plan-same", other.name)
			}
		}
		if err := os.MkdirAll(filepath.Dir(c.PlanOut), 0o755); err != nil {
			return cfg, &configError{err: &outfile.Error{Flag: "plan-out", Path: c.PlanOut, Err: err}}
		}
		cfg.PlanOut = true
		return cfg, nil
	}
	for _, f := range []struct {
		name string
		set  bool
	}{{"--scope", len(c.Scope) > 0}, {"--retention-days", len(c.RetentionDays) > 0}, {"--max-entries", len(c.MaxEntries) > 0},
		{"--max-size-mb", len(c.MaxSizeMb) > 0}, {"--now", set["now"]}, {"--timestamp", set["timestamp"]}, {"--keep-within", set["keep-within"]}} {
		if f.set {
			return cfg, configErr("gc-cfg-apply-flag", f.name)
		}
	}
	p, err := readPlan(c.Apply)
	if err != nil {
		return cfg, err
	}
	if root := absRoot(cfg.Root.Path); p.Root != root {
		return cfg, &configError{err: &planFileError{path: c.Apply, err: &plan.Error{Kind: plan.KindRoot, Got: p.Root, Want: root}}}
	}
	cfg.Plan, cfg.Scopes, cfg.Retention, cfg.PerScope, cfg.Now, cfg.KeepWithin = p, p.Scopes, p.Retention, p.PerScope, p.Now, p.KeepWithin
	cfg.Metadata = p.Timestamp == "metadata"
	excludes := slices.Clone(p.Excludes)
	for _, x := range cfg.Excludes {
		if !slices.Contains(excludes, x) {
			excludes = append(excludes, x)
		}
	}
	cfg.Excludes = excludes
	return cfg, nil
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
	return nil, &configError{err: &planFileError{path: path, err: err}}
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

// asPlanOut names --plan-out in an output-file refusal made for it.
func asPlanOut(err error) error {
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

// writePlan writes a dry-run's plan to --plan-out (atomically, never over
// what is not a regular file, checked again now) and says so on stderr.
func (c *cli) writePlan(out gc.Outcome, cfg gc.Config, stderr io.Writer) error {
	p := out.Plan
	if p == nil || c.PlanOut == "" {
		return nil
	}
	p.Root, p.ToolVersion = out.Run.Root, out.Run.Version
	err := late(asPlanOut(checkOutputFiles(cfg.Root, c.PlanOut, "")))
	if err == nil {
		err = asPlanOut(outfile.WriteAtomically(c.PlanOut, func(w io.Writer) error { return plan.Encode(w, p) }))
	}
	if err != nil {
		return err
	}
	lang := render.Lang(c.Lang)
	_, err = fmt.Fprintln(stderr, "river gc: "+render.Message(lang, "gc-plan-written", report.Display(c.PlanOut), strconv.Itoa(len(p.Items)), p.Digest))
	return err
}
