//go:build linux

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/alecthomas/kong"
	"golang.org/x/term"

	"github.com/plangate-gc/plangate-gc/gate"
	"github.com/plangate-gc/plangate-gc/internal/cliparse"
	"github.com/plangate-gc/plangate-gc/internal/progress"
	"github.com/plangate-gc/plangate-gc/internal/report"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/scan"
	"github.com/plangate-gc/plangate-gc/internal/version"
	"github.com/plangate-gc/plangate-gc/render"
	"github.com/plangate-gc/plangate-gc/skill"
)

// cli holds seed 000's flags plus SPEC Part B's additions. Numbers are
// taken as text so that they can be validated with exact decimal rules and
// echoed verbatim in retention.
type cli struct {
	RetentionDays string   `name:"retention-days" default:"90" placeholder:"N" help:"Remove entries older than N days (default 90; by artifact metadata timestamp, mtime fallback)."`
	MaxEntries    string   `name:"max-entries" default:"1000" placeholder:"N" help:"Keep at most N entries per scope, dropping the oldest (default 1000)."`
	MaxSizeMb     string   `name:"max-size-mb" default:"500" placeholder:"N" help:"Keep at most N MB per scope, dropping the oldest (default 500; 1 MB = 1 MiB = 1048576 bytes)."`
	Now           string   `placeholder:"RFC3339" help:"Pin the reference time (default: the system clock, which breaks determinism)."`
	Scope         []string `sep:"none" placeholder:"SCOPE" complete:"memory,evals,review-artifacts,tmp,all" help:"memory, evals, review-artifacts, tmp or all (repeatable; default all)."`
	Exclude       []string `sep:"none" placeholder:"GLOB" help:"Protect paths matching this .gitignore-syntax glob (repeatable)."`
	DryRun        bool     `name:"dry-run" help:"List candidates only (the default without --force; wins over --force)."`
	Force         bool     `help:"Actually delete."`
	JSON          bool     `name:"json" help:"Write the machine-readable result on stdout; the summary goes to stderr."`
	OutputFile    string   `name:"output-file" placeholder:"PATH" help:"Write the --json result to PATH atomically instead of stdout."`
	Quiet         bool     `help:"Suppress the human-readable summary (errors still go to stderr)."`
	Debug         bool     `help:"Verbose stderr logging."`
	Root          string   `placeholder:"DIR" help:"Repository root that all scopes are relative to (default: the nearest directory upward holding .river/ or artifacts/)."`
	SummaryFile   string   `name:"summary-file" placeholder:"PATH" help:"Append the Markdown summary to PATH (e.g. $$GITHUB_STEP_SUMMARY)."`
	Verbose       bool     `help:"List every removal in the summary (a terminal otherwise gets the first ones and a count)."`
	Explain       []string `sep:"none" placeholder:"PATH" help:"Explain the verdict for PATH (repeatable); deletes nothing."`
	EmitInventory bool     `name:"emit-inventory" help:"Write one plangate-gc input document per non-empty scope and exit."`
	Timestamp     string   `enum:"metadata,mtime" default:"metadata" help:"Judge files by artifact metadata timestamps (with mtime fallback) or by mtime only."`
	Lang          string   `enum:"en,ja" default:"en" help:"Language of the human summary (en, ja)."`

	Version kong.VersionFlag `help:"Print the version and exit."`
}

const description = `Deterministic garbage collection of River Review artifacts.

Scans .river/memory/, artifacts/evals/, artifacts/review-artifact*.json,
artifacts/review-*.md and temp directories, applies the retention policy
(age, count, size; a union, one reason per file) through the plangate-gc
engine, and deletes only with --force. Single sources of truth are never
deleted; symlinks and directories are never followed or removed.

Examples:
  river-gc                                        # dry-run: list what would go
  river-gc --force                                # delete
  river-gc --force --json --output-file ./artifacts/gc-result.json
  river-gc --scope memory --scope evals --retention-days 30
  river-gc --force --exclude 'artifacts/keep/**'
  river-gc --emit-inventory | plangate-gc --json  # reproduce the judgement

Exit codes: 0 success (errors[] empty), 1 runtime errors (errors[] not
empty, or another --force run holds the lock), 2 config error.`

// run parses and validates the flags, then runs river gc.
func run(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	var c cli
	args, repeated := pullRepeated(args, "exclude", "scope", "explain")
	kctx, done, err := cliparse.Parse(&c, args, kong.Name("river-gc"), kong.Description(description), kong.Writers(stdout, stderr),
		kong.Vars{"version": "river-gc " + version.String()})
	switch {
	case done:
		return nil
	case err != nil:
		return &configError{err: cliparse.Translate(err)}
	}
	c.Exclude = append(c.Exclude, repeated["exclude"]...)
	c.Scope = append(c.Scope, repeated["scope"]...)
	c.Explain = append(c.Explain, repeated["explain"]...)
	cfg, err := c.config(setFlags(kctx))
	if err != nil {
		return err
	}
	defer cfg.Root.Close()
	if cfg.Mode == gc.Force {
		// SIGINT and SIGTERM cancel a --force run: it finishes or undoes
		// the files in hand (one per deletion worker), attempts no more
		// deletions and still writes its record (SPEC B2). A second
		// signal ends the process at once.
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
		defer stop()
		go func() {
			<-ctx.Done()
			stop()
		}()
	}
	return c.execute(ctx, cfg, stdout, stderr)
}

// execute runs the configured river gc and writes its outputs.
func (c *cli) execute(ctx context.Context, cfg gc.Config, stdout, stderr io.Writer) error {
	lang := render.Lang(c.Lang)
	if c.Debug {
		cfg.OnFile = func(scope skill.Scope, f scan.File) {
			fmt.Fprintf(stderr, "debug: %s: scope %s, timestamp %s (%s, %d), %d bytes\n", f.Path, scope,
				time.Unix(f.Timestamp, 0).UTC().Format(time.DateOnly), f.TimestampSource, f.Timestamp, f.Size)
		}
		cfg.OnNote = func(scope skill.Scope, n scan.Note) {
			fmt.Fprintf(stderr, "debug: %s: %s\n", n.Path, report.NoteText(scope, n, lang))
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
			return errRuntime
		}
		return nil
	}
	if len(c.Explain) > 0 {
		return c.explain(cfg, stdout)
	}
	jsonOnStdout := c.JSON && c.OutputFile == ""
	terminal := isTerminal(stderr)
	if terminal && !c.Quiet && !jsonOnStdout {
		line := progress.New(stderr)
		cfg.Scanned = func(files int) {
			line.Update(render.Message(lang, "gc-progress-scan", strconv.Itoa(files)), false)
		}
		cfg.Progress = func(done, total int) {
			line.Update(render.Message(lang, "gc-progress-delete", strconv.Itoa(done), strconv.Itoa(total)), done == total)
		}
		out, err := gc.Run(ctx, cfg)
		line.Clear()
		return c.write(out, err, cfg, stdout, stderr)
	}
	out, err := gc.Run(ctx, cfg)
	return c.write(out, err, cfg, stdout, stderr)
}

// write writes the outputs of a run: the summary, the errors, the debug
// evidence, the --summary-file Markdown and the JSON result.
func (c *cli) write(out gc.Outcome, err error, cfg gc.Config, stdout, stderr io.Writer) error {
	if err != nil {
		return err
	}
	lang := render.Lang(c.Lang)
	if c.Debug {
		for rm := range out.Removed() {
			fmt.Fprintf(stderr, "debug: %s: %s\n", rm.Path, removalEvidence(rm))
		}
	}
	// The summary first: if writing the JSON fails after a --force run,
	// the deletions are still on record.
	if !c.Quiet {
		summaryTo := stdout
		if c.JSON {
			summaryTo = stderr
		}
		opt := report.Options{Terminal: isTerminal(summaryTo), Verbose: c.Verbose}
		if err := report.Summary(summaryTo, out, cfg.Retention, cfg.Now, lang, opt); err != nil {
			return err
		}
	}
	// Errors always go to stderr too (seed 000: "Errors still go to stderr").
	if err := report.Errors(stderr, out.Errors, lang); err != nil {
		return err
	}
	// The JSON record before the Markdown summary: a summary file that
	// cannot be written must not cost the record of what was deleted. If
	// the --output-file cannot be written, the JSON goes to stdout instead,
	// so a --force run always leaves it somewhere.
	var failed error
	if c.JSON {
		write := func(w io.Writer) error { return report.GCJSON(w, out, cfg.Retention) }
		if c.OutputFile != "" {
			// Checked again now: the tree may have changed since the flags
			// were validated (a directory swapped for a link into a scope).
			err := late(checkOutputFiles(cfg.Root, c.OutputFile, ""))
			if err == nil {
				err = writeAtomically(c.OutputFile, write)
			}
			if err != nil {
				failed = err
				if werr := write(stdout); werr != nil {
					return errors.Join(err, werr)
				}
			}
		} else if err := write(stdout); err != nil {
			return err
		}
	}
	if c.SummaryFile != "" {
		var buf bytes.Buffer
		if err := report.Markdown(&buf, out, cfg.Retention, cfg.Now, lang); err != nil {
			return errors.Join(failed, err)
		}
		err := late(checkOutputFiles(cfg.Root, "", c.SummaryFile))
		if err == nil {
			err = appendFile(c.SummaryFile, buf.Bytes())
		}
		if err != nil {
			return errors.Join(failed, err)
		}
	}
	if failed != nil {
		return failed
	}
	if len(out.Errors) > 0 {
		return errRuntime
	}
	return nil
}

// explain answers --explain: nothing is deleted; exit 1 when a path could
// not be examined.
func (c *cli) explain(cfg gc.Config, stdout io.Writer) error {
	exps, err := gc.Explain(cfg, c.Explain)
	if err != nil {
		return err
	}
	if err := report.Explain(stdout, exps, cfg.Now, cfg.Retention, render.Lang(c.Lang)); err != nil {
		return err
	}
	for _, ex := range exps {
		if ex.Verdict == gc.VerdictError {
			return errRuntime
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

// appendFile appends data to path (--summary-file), creating it 0644;
// O_NOFOLLOW refuses a symlink put there since the flags were checked.
func appendFile(path string, data []byte) error {
	// O_NONBLOCK: a FIFO put at the path during the run must not hang us;
	// the descriptor itself is then checked, so what was swapped in since
	// the flags were validated (a FIFO, a hard link) is refused.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
	if err != nil {
		return fmt.Errorf("--summary-file: %w", err)
	}
	var st syscall.Stat_t
	switch err = syscall.Fstat(int(f.Fd()), &st); {
	case err != nil:
	case st.Mode&syscall.S_IFMT != syscall.S_IFREG:
		err = errNotRegular
	case st.Nlink > 1:
		err = errLinked
	}
	if err == nil {
		_, err = f.Write(data)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("--summary-file %s: %w", path, err)
	}
	return nil
}

// pullRepeated takes the values of the repeatable flags out of args
// before kong sees them: kong appends to a slice flag in time quadratic in
// its count, so 100,000 --exclude flags would take minutes. Only the plain
// forms are taken ("--name=value", or "--name value" with a value that is
// not itself a flag); anything else, and everything after "--", is left
// for kong to parse or reject in its own words.
func pullRepeated(args []string, names ...string) (rest []string, values map[string][]string) {
	values = map[string][]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(rest, args[i:]...), values
		}
		taken := false
		for _, n := range names {
			if v, ok := strings.CutPrefix(a, "--"+n+"="); ok {
				values[n], taken = append(values[n], v), true
			} else if a == "--"+n && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				values[n], taken = append(values[n], args[i+1]), true
				i++
			}
		}
		if !taken {
			rest = append(rest, a)
		}
	}
	return rest, values
}

// setFlags returns the names of the flags given on the command line.
func setFlags(kctx *kong.Context) map[string]bool {
	set := map[string]bool{}
	for _, p := range kctx.Path {
		if p.Flag != nil {
			set[p.Flag.Name] = true
		}
	}
	return set
}

// late turns a check that failed after the run into a runtime failure
// (exit 1): by then files may have been deleted, so it is no config error.
func late(err error) error {
	var cfg *configError
	if errors.As(err, &cfg) {
		return fmt.Errorf("changed during the run: %w", cfg.err)
	}
	return err
}

// writeAtomically has write fill a temporary file in path's directory and
// renames it to path, so a reader never sees a half-written result;
// missing parent directories are created, the mode is 0644.
func writeAtomically(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--output-file: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".gc-result-*.tmp")
	if err != nil {
		return fmt.Errorf("--output-file: %w", err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename this is a no-op
	err = write(tmp)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		// Checked again at the last moment: what appeared at path since
		// the flags were validated is not ours to replace.
		err = checkRegularOrAbsent(path)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("--output-file %s: %w", path, err)
	}
	return nil
}
