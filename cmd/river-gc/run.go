//go:build linux

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/alecthomas/kong"
	"golang.org/x/term"

	"github.com/plangate-gc/plangate-gc/gate"
	bucket "github.com/plangate-gc/plangate-gc/internal/backend/s3"
	"github.com/plangate-gc/plangate-gc/internal/clidoc"
	"github.com/plangate-gc/plangate-gc/internal/cliparse"
	"github.com/plangate-gc/plangate-gc/internal/report"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/outfile"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/scan"
	"github.com/plangate-gc/plangate-gc/internal/version"
	"github.com/plangate-gc/plangate-gc/render"
	"github.com/plangate-gc/plangate-gc/skill"
)

// cli holds seed 000's flags plus SPEC Part B's additions. Numbers are
// taken as text so that they can be validated with exact decimal rules and
// echoed verbatim in retention.
type cli struct {
	RetentionDays []string `name:"retention-days" sep:"none" placeholder:"[SCOPE=]N" help:"${h_retention_days}"`
	MaxEntries    []string `name:"max-entries" sep:"none" placeholder:"[SCOPE=]N" help:"${h_max_entries}"`
	MaxSizeMb     []string `name:"max-size-mb" sep:"none" placeholder:"[SCOPE=]N" help:"${h_max_size_mb}"`
	KeepWithin    string   `name:"keep-within" placeholder:"DURATION" help:"${h_keep_within}"`
	Now           string   `placeholder:"RFC3339" help:"${h_now}"`
	Scope         []string `sep:"none" placeholder:"SCOPE" complete:"memory,evals,review-artifacts,tmp,runs,memory-entries,eval-ledger,all" help:"${h_scope}"`
	Exclude       []string `sep:"none" placeholder:"GLOB" help:"${h_exclude}"`
	DryRun        bool     `name:"dry-run" help:"${h_dry_run}"`
	Force         bool     `help:"${h_force}"`
	JSON          bool     `name:"json" help:"${h_j_s_o_n}"`
	OutputFile    string   `name:"output-file" placeholder:"PATH" help:"${h_output_file}"`
	PlanOut       string   `name:"plan-out" placeholder:"FILE" help:"${h_plan_out}"`
	Apply         string   `name:"apply" placeholder:"FILE" help:"${h_apply}"`
	JSONFormat    string   `name:"json-format" enum:"gc,findings,artifact" default:"gc" help:"${h_j_s_o_n_format}"`
	Quiet         bool     `help:"${h_quiet}"`
	Debug         bool     `help:"${h_debug}"`
	Root          string   `placeholder:"DIR" help:"${h_root}"`
	SummaryFile   string   `name:"summary-file" placeholder:"PATH" help:"${h_summary_file}"`
	Verbose       bool     `help:"${h_verbose}"`
	Explain       []string `sep:"none" placeholder:"PATH" help:"${h_explain}"`
	EmitInventory bool     `name:"emit-inventory" help:"${h_emit_inventory}"`
	Timestamp     string   `enum:"metadata,mtime" default:"metadata" help:"${h_timestamp}"`
	Lang          string   `enum:"en,ja" default:"${lang}" help:"${h_lang}"`

	Version kong.VersionFlag `help:"${h_version}"`

	start time.Time          // when the run began, for durationMs
	notes []note             // warnings about the flags (policy.go)
	reach []report.Reachable // what unselected store scopes would reclaim (stores.go)
	// toldAhead: stderr had the warnings about what goes before the
	// first deletion (warnings.go).
	toldAhead bool
}

// sinceMs is the milliseconds since start: the record's durationMs, the
// one field that differs between identical runs. Tests pin it.
var sinceMs = func(start time.Time) int64 { return time.Since(start).Milliseconds() }

// pinAllocated zeroes the allocated bytes of a run's record: the scripts'
// goldens must not depend on the test file system's block size.
var pinAllocated = false

// pinAllocation zeroes out's allocated bytes (pinAllocated).
func pinAllocation(out *gc.Outcome) {
	out.FreedAllocated = 0
	for i := range out.Scopes {
		for k := range out.Scopes[i].Stamps {
			out.Scopes[i].Stamps[k].Allocated = 0
		}
	}
}

// absRoot is the root's absolute name, as the record shows it.
func absRoot(dir string) string {
	if bucket.IsRoot(dir) {
		return dir
	}
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}

const description = `Deterministic garbage collection of River Review artifacts.

Scans .river/memory/, artifacts/evals/, artifacts/review-artifact*.json,
artifacts/review-*.md and temp directories, applies the retention policy
(age, count, size; a union, one reason per file) through the plangate-gc
engine, and deletes only with --force. Single sources of truth are never
deleted; symlinks are never followed; the only directories removed are
an eval run's folders that the run emptied. River Review's stores are
opt-in: --scope runs, memory-entries, eval-ledger (every run says what
they would reclaim). What each scope covers:
` + scopesURL + `

The root is --root, or the nearest directory upward holding .river/ or
artifacts/ (the git work tree's top when that holds one); it is named in
the summary. An eval run is the shallowest directory below
artifacts/evals/ holding a *.json with a metadata timestamp
(artifacts/evals/<run>/ or artifacts/evals/runs/<id>/); its files without
a timestamp of their own take the run's newest, so a run goes or stays
whole. Paths on the command line are relative to the current directory;
--exclude globs are relative to the root ("./x" and absolute paths inside
the root are normalized; paths that can never match are refused).

Examples:
` + examples + `Exit codes: 0 success (errors[] empty), 1 runtime errors (errors[] not
empty, or another --force run holds the lock), 2 config error.`

// examples are --help's examples in English (examplesJapanese has the
// same commands with Japanese comments).
const examples = `  river-gc                                        # dry-run: list what would go
  river-gc --force                                # delete
  river-gc --force --json --output-file ./artifacts/gc-result.json
  river-gc --plan-out plan.json                   # review plan.json, then
  river-gc --force --apply plan.json              # delete exactly what it lists
  river-gc --scope memory --scope evals --retention-days 30
  river-gc --scope all --scope runs --scope memory-entries --scope eval-ledger
  river-gc --force --retention-days 90 --retention-days tmp=7
  river-gc --force --exclude 'artifacts/keep/**'
  river-gc --root s3://artifacts/acme/web         # a prefix of an S3-compatible bucket
  source <(river-gc completion bash)              # also zsh, fish
  river-gc --emit-inventory | plangate-gc --json  # reproduce the judgement

`

// run parses and validates the flags, then runs river gc.
func run(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	c := cli{start: time.Now()}
	rest, repeated := pullRepeated(args, "exclude", "scope", "explain")
	prog := progName()
	lang := langArg(args) // --help in the run's language (SPEC B7)
	vars := clidoc.Vars(helpEnglish, helpJapanese, lang == render.Japanese)
	vars["version"], vars["lang"] = "river-gc "+version.String(), string(render.LangFromEnv(os.Getenv))
	options := []kong.Option{kong.Name(prog), kong.Description(forProgram(map[bool]string{true: descriptionJapanese, false: description}[lang == render.Japanese], prog)),
		kong.Writers(stdout, stderr), vars}
	if lang == render.Japanese {
		options = append(options, kong.Help(cliparse.WrapWide)) // kong breaks lines only at spaces (decision 244)
	}
	kctx, done, err := cliparse.Parse(&c, rest, options...)
	switch {
	case done:
		return nil
	case err != nil:
		if h := habitError(cliparse.Translate(err), args); h != nil {
			return h
		}
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
		ctx = forceSignals(ctx)
		cfg.BeforeDelete = c.beforeDelete(stderr)
	}
	return c.execute(ctx, cfg, stdout, stderr)
}

// execute runs the configured river gc and writes its outputs.
func (c *cli) execute(ctx context.Context, cfg gc.Config, stdout, stderr io.Writer) error {
	lang := render.Lang(c.Lang)
	for _, n := range c.notes {
		fmt.Fprintln(stderr, report.DisplayText(render.Message(lang, "gc-cli-warning", render.Message(lang, n.key, n.args...))))
	}
	if c.Debug {
		fmt.Fprintf(stderr, "debug: %s\n", report.RootLine(absRoot(cfg.Root.Path), lang)) // absolute (SPEC B9)
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
			return errRuntime
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
func (c *cli) record(out gc.Outcome, cfg gc.Config, stdout, stderr io.Writer) (bool, error) {
	if pinAllocated { // tests: allocation depends on the file system
		pinAllocation(&out)
	}
	out.Run = gc.RunInfo{Root: absRoot(cfg.Root.Path), Now: cfg.Now, Version: version.String(), DurationMs: sinceMs(c.start)}
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
	return !errors.Is(err, errNoRecord), err
}

// write writes the outputs of a run in this order: the JSON record, the
// --debug evidence, the summary, the errors, the --summary-file Markdown.
// Every failure is returned (joined); one of the record wraps errNoRecord.
func (c *cli) write(out gc.Outcome, err error, cfg gc.Config, stdout, stderr io.Writer) error {
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
			err := late(checkOutputFiles(cfg.Root, c.OutputFile, ""))
			if err == nil {
				err = outfile.WriteAtomically(c.OutputFile, write)
			}
			if err != nil {
				failed = append(failed, err)
				if werr := write(stdout); werr != nil {
					failed = append(failed, werr, errNoRecord)
				}
			}
		} else if err := write(stdout); err != nil {
			failed = append(failed, err, errNoRecord)
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
				failed = append(failed, errNoRecord)
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
			err = late(checkOutputFiles(cfg.Root, "", c.SummaryFile))
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

// pullRepeated takes the values of the repeatable flags out of args
// before kong sees them: kong appends to a slice flag in time quadratic in
// its count, so 100,000 --exclude flags would take minutes. Only the plain
// forms are taken ("--name=value", or "--name value" with a value that is
// not itself a flag); anything else, and everything after "--", is left
// for kong to parse or reject in its own words. --explain also takes
// the paths that follow its value.
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
		// --explain takes every path that follows it, up to the next
		// flag: --explain a b c (SPEC B5); river-gc has no arguments of
		// its own for them to be mistaken for.
		for taken && (a == "--explain" || strings.HasPrefix(a, "--explain=")) && i+1 < len(args) &&
			!strings.HasPrefix(args[i+1], "-") {
			values["explain"] = append(values["explain"], args[i+1])
			i++
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

// checkOutputFiles is outfile.Check, a config error when it refuses.
func checkOutputFiles(root *gc.Root, outputFile, summaryFile string) error {
	if err := outfile.Check(root, outputFile, summaryFile); err != nil {
		return &configError{err: err}
	}
	return nil
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
