package main

// evalCmd runs the evaluation harness (issue: plangate-gc eval).
type evalCmd struct {
	Dir string `arg:"" optional:"" default:"fixtures" help:"Directory of fixture cases."`
}

// Run is not built yet.
func (c *evalCmd) Run(e *env) error { return evalFailed }
