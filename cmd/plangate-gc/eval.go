package main

import (
	"fmt"
	"io"
	"os"
	"regexp"

	"github.com/plangate-gc/plangate-gc/internal/eval"
	"github.com/plangate-gc/plangate-gc/render"
)

// evalCmd runs the evaluation harness over fixture cases, in-process;
// the root flag --json asks for a machine-readable report.
type evalCmd struct {
	Dir    string `arg:"" optional:"" default:"fixtures" help:"${h_eval_dir}"`
	Filter string `name:"run" placeholder:"REGEX" help:"${h_eval_run}"`
	Update bool   `help:"${h_eval_update}"`
}

// Run evaluates the cases; any failing case makes the command exit 1.
func (c *evalCmd) Run(e *env) error {
	cfg := eval.Config{Update: c.Update}
	if c.Filter != "" {
		re, err := regexp.Compile(c.Filter)
		if err != nil {
			return &usageError{err: fmt.Errorf("--run: %w", err)}
		}
		cfg.Run = re
	}
	if st, err := os.Stat(c.Dir); err != nil || !st.IsDir() {
		return &usageError{err: fmt.Errorf("%s is not a directory of cases", c.Dir)}
	}
	rep, err := eval.Run(c.Dir, eval.Production, cfg)
	if err != nil {
		return err
	}
	write := func(w io.Writer) error { return rep.WriteTextIn(w, render.LangFromEnv(os.Getenv)) }
	if e.cli.JSON || e.cli.Format == "json" { // the root's --json: a JSON report
		write = rep.WriteJSON
	}
	if err := write(e.stdout); err != nil {
		return fmt.Errorf("writing report: %w", err)
	}
	if rep.Failed > 0 {
		return errEvalFailed
	}
	return nil
}
