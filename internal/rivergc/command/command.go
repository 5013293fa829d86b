//go:build linux

// Package command runs river gc once its flags are validated
// (config.Config): a dry-run or --force run with its progress, --explain
// or --emit-inventory, and writes what the run owes the user in order:
// the record (the JSON, or the summary), the plan file, the warnings and
// errors on stderr, the --summary-file Markdown. It decides nothing about
// the flags and maps no error to an exit code: that is the main's.
package command

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"time"

	"golang.org/x/term"

	"github.com/plangate-gc/plangate-gc/gate"
	"github.com/plangate-gc/plangate-gc/internal/report"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/config"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/outfile"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/scan"
	"github.com/plangate-gc/plangate-gc/internal/version"
	"github.com/plangate-gc/plangate-gc/render"
	"github.com/plangate-gc/plangate-gc/skill"
)

// ErrRuntime means errors[] is not empty: the result was already written,
// the exit code is 1.
var ErrRuntime = errors.New("errors occurred")

// ErrNoRecord is joined to the failure of writing a run's record (the
// JSON, or the summary without --json): gc then keeps the intent journal,
// so the next run reports what this one deleted.
var ErrNoRecord = errors.New("the record of this run was not written; the intent journal is kept, so the next run reports what was deleted")

// Options are how a run is timed and what the test binary pins.
type Options struct {
	// Start is when the run began, for durationMs.
	Start time.Time
	// Since is the milliseconds since Start: the record's durationMs,
	// the one field that differs between identical runs.
	Since func(start time.Time) int64
	// ProgressEvery is the time between progress lines off a terminal.
	ProgressEvery time.Duration
	// ZeroAllocated zeroes the allocated bytes of the record, so that
	// goldens do not depend on the file system's block size.
	ZeroAllocated bool
}

// command is one validated run and what its outputs have said so far.
type command struct {
	config.Config
	opt   Options
	reach []report.Reachable // what unselected store scopes would reclaim (stores.go)
	// toldAhead: stderr had the warnings about what goes before the
	// first deletion (warnings.go).
	toldAhead bool
}

// Run runs cfg and writes its outputs; a --force run first gets the
// warnings about what goes on stderr before anything goes. The caller
// closes cfg.Run.Root.
func Run(ctx context.Context, cfg config.Config, opt Options, stdout, stderr io.Writer) error {
	c := &command{Config: cfg, opt: opt}
	run := cfg.Run
	if run.Mode == gc.Force {
		run.BeforeDelete = c.beforeDelete(stderr)
	}
	return c.execute(ctx, run, stdout, stderr)
}

// zeroAllocated zeroes out's allocated bytes (Options.ZeroAllocated).
func zeroAllocated(out *gc.Outcome) {
	out.FreedAllocated = 0
	for i := range out.Scopes {
		for k := range out.Scopes[i].Stamps {
			out.Scopes[i].Stamps[k].Allocated = 0
		}
	}
}

// execute runs the configured river gc and writes its outputs.
func (c *command) execute(ctx context.Context, cfg gc.Config, stdout, stderr io.Writer) error {
	lang := render.Lang(c.Lang)
	for _, n := range c.Notes {
		fmt.Fprintln(stderr, report.DisplayText(render.Message(lang, "gc-cli-warning", render.Message(lang, n.Key, n.Args...))))
	}
	if c.Debug {
		fmt.Fprintf(stderr, "debug: %s\n", report.RootLine(c.RootName, lang)) // absolute (SPEC B9)
		cfg.OnFile = func(scope skill.Scope, f scan.File) {
			fmt.Fprintf(stderr, "debug: %s: scope %s, timestamp %s (%s, %d), %d bytes\n", report.Display(f.Path), scope,
				time.Unix(f.Timestamp, 0).UTC().Format(time.DateOnly), f.TimestampSource, f.Timestamp, f.Size)
		}
		cfg.OnNote = func(scope skill.Scope, n scan.Note) {
			fmt.Fprintf(stderr, "debug: %s: %s\n", report.Display(n.Path), report.NoteText(scope, n, lang))
		}
	}
	if c.EmitInventory {
		docs, errs := gc.Inventories(cfg)
		for _, d := range docs {
			if err := gate.WriteInput(stdout, d); err != nil {
				return err
			}
		}
		if err := report.Errors(stderr, errs, lang); err != nil {
			return err
		}
		if len(errs) > 0 {
			return ErrRuntime
		}
		return nil
	}
	if len(c.Explain) > 0 {
		return c.explain(cfg, stdout)
	}
	return c.runWithProgress(ctx, cfg, stdout, stderr)
}

// record writes the outputs of a run, while a --force run still holds the
// lock, and says whether the run's record was written: the JSON (to
// --output-file, or stdout) with --json, else the summary on stdout. The
// record comes first and nothing written after it can cost it: a closed
// stderr, a failing summary or --summary-file are reported (exit 1) once
// the record is safe. Only a written record lets gc remove the intent
// journal.
func (c *command) record(out gc.Outcome, cfg gc.Config, stdout, stderr io.Writer) (bool, error) {
	if c.opt.ZeroAllocated { // tests: allocation depends on the file system
		zeroAllocated(&out)
	}
	out.Run = gc.RunInfo{Root: c.RootName, Now: cfg.Now, Version: version.String(), DurationMs: c.opt.Since(c.opt.Start)}
	// An unused exclude is named as the user typed it ("./x", not the
	// normalized "/x" that was matched), with the root it is relative to.
	for i, w := range out.Warnings {
		if k := slices.Index(cfg.Excludes, w.Path); w.Kind == gc.WarnUnusedExclude && k >= 0 && k < len(c.Exclude) {
			out.Warnings[i].Path = c.Exclude[k]
		}
		if w.Kind == gc.WarnUnusedExclude { // patterns are the root's, not the working directory's (SPEC B7)
			out.Warnings[i].Target = out.Run.Root
		}
	}
	if !c.Quiet {
		c.reach = reachable(cfg)
	}
	perr := c.writePlan(out, cfg, stderr)
	err := c.write(out, nil, cfg, stdout, stderr)
	if perr != nil {
		err = errors.Join(err, perr)
	}
	return !errors.Is(err, ErrNoRecord), err
}

// write writes the outputs of a run in this order: the JSON record, the
// --debug evidence, the summary, the errors, the --summary-file Markdown.
// Every failure is returned (joined); one of the record wraps ErrNoRecord.
func (c *command) write(out gc.Outcome, err error, cfg gc.Config, stdout, stderr io.Writer) error {
	if err != nil {
		return err
	}
	lang := render.Lang(c.Lang)
	var failed []error
	// The JSON record first. If the --output-file cannot be written, the
	// JSON goes to stdout instead, so a --force run always leaves it
	// somewhere.
	if c.JSON {
		write := func(w io.Writer) error { return report.GCJSON(w, out, cfg.Retention) }
		if c.JSONFormat == "findings" || c.JSONFormat == "artifact" { // SPEC C2: one document for the run
			write = func(w io.Writer) error {
				return report.RunFindings(w, out, cfg.Retention, cfg.Now, lang, c.JSONFormat == "artifact")
			}
		}
		if c.OutputFile != "" {
			// Checked again now: the tree may have changed since the flags
			// were validated (a directory swapped for a link into a scope).
			err := config.Late(config.CheckOutputFiles(cfg.Root, c.OutputFile, ""))
			if err == nil {
				err = outfile.WriteAtomically(c.OutputFile, write)
			}
			if err != nil {
				failed = append(failed, err)
				if werr := write(stdout); werr != nil {
					failed = append(failed, werr, ErrNoRecord)
				}
			}
		} else if err := write(stdout); err != nil {
			failed = append(failed, err, ErrNoRecord)
		}
	}
	if c.Debug {
		var b bytes.Buffer
		for rm := range out.Removed() {
			fmt.Fprintf(&b, "debug: %s: %s\n", report.Display(rm.Path), removalEvidence(rm))
		}
		if _, err := stderr.Write(b.Bytes()); err != nil {
			failed = append(failed, err)
		}
	}
	if !c.Quiet {
		summaryTo := stdout
		if c.JSON {
			summaryTo = stderr
		}
		opt := report.Options{Terminal: isTerminal(summaryTo), Verbose: c.Verbose, Reachable: c.reach}
		if err := report.Summary(summaryTo, out, cfg.Retention, cfg.Now, lang, opt); err != nil {
			failed = append(failed, err)
			if !c.JSON {
				failed = append(failed, ErrNoRecord)
			}
		}
	}
	// --quiet hides the summary, never a warning (SPEC B5, B9).
	if err := c.stderrWarnings(stderr, out.Warnings); err != nil {
		failed = append(failed, err)
	}
	// Errors always go to stderr too (seed 000: "Errors still go to stderr").
	if err := report.Errors(stderr, out.Errors, lang); err != nil {
		failed = append(failed, err)
	}
	if c.SummaryFile != "" {
		var buf bytes.Buffer
		// The byte cap counts what the step summary already holds.
		limit := report.MarkdownMaxBytes
		if st, err := os.Stat(c.SummaryFile); err == nil {
			limit = max(limit-int(min(st.Size(), int64(limit))), 32<<10)
		}
		err := report.MarkdownLimit(&buf, out, cfg.Retention, cfg.Now, lang, limit)
		if err == nil {
			err = config.Late(config.CheckOutputFiles(cfg.Root, "", c.SummaryFile))
		}
		if err == nil {
			err = outfile.Append(c.SummaryFile, buf.Bytes())
		}
		if err != nil {
			failed = append(failed, err)
		}
	}
	if len(failed) > 0 {
		return errors.Join(failed...)
	}
	if len(out.Errors) > 0 {
		return ErrRuntime
	}
	return nil
}

// explain answers --explain: nothing is deleted; exit 1 when a path could
// not be examined.
func (c *command) explain(cfg gc.Config, stdout io.Writer) error {
	exps, err := gc.Explain(cfg, c.Explain)
	if err != nil {
		return err
	}
	if err := report.Explain(stdout, exps, cfg.Now, cfg.Retention, render.Lang(c.Lang)); err != nil {
		return err
	}
	for _, ex := range exps {
		if ex.Verdict == gc.VerdictError {
			return ErrRuntime
		}
	}
	return nil
}

// removalEvidence is a --debug line's verdict for one removal.
func removalEvidence(rm gc.Removed) string {
	ev := ""
	switch rm.Reason {
	case skill.ReasonAge:
		ev = strconv.FormatInt(rm.Decision.MtimeAge, 10) + " days"
	case skill.ReasonCount:
		ev = "rank " + strconv.Itoa(rm.Decision.Rank)
	case skill.ReasonSize:
		ev = "cumulative " + rm.Decision.Cumulative.String() + " bytes"
	}
	return fmt.Sprintf("scope %s, timestamp %s (%s), %d bytes, remove: %s (%s)", rm.Scope,
		time.Unix(rm.Timestamp, 0).UTC().Format(time.DateOnly), rm.Source, rm.SizeBytes, rm.Reason, ev)
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
