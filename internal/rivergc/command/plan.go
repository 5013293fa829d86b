//go:build linux

package command

import (
	"fmt"
	"io"
	"strconv"

	"github.com/plangate-gc/plangate-gc/internal/report"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/config"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/outfile"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/plan"
	"github.com/plangate-gc/plangate-gc/render"
)

// writePlan writes a dry-run's plan to --plan-out (atomically, never over
// what is not a regular file, checked again now) and says so on stderr.
func (c *command) writePlan(out gc.Outcome, cfg gc.Config, stderr io.Writer) error {
	p := out.Plan
	if p == nil || c.PlanOut == "" {
		return nil
	}
	p.Root, p.ToolVersion = out.Run.Root, out.Run.Version
	err := config.Late(config.AsPlanOut(config.CheckOutputFiles(cfg.Root, c.PlanOut, "")))
	if err == nil {
		err = config.AsPlanOut(outfile.WriteAtomically(c.PlanOut, func(w io.Writer) error { return plan.Encode(w, p) }))
	}
	if err != nil {
		return err
	}
	lang := render.Lang(c.Lang)
	_, err = fmt.Fprintln(stderr, "river gc: "+render.Message(lang, "gc-plan-written", report.Display(c.PlanOut), strconv.Itoa(len(p.Items)), p.Digest))
	return err
}
