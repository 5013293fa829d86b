//go:build linux

package main

import (
	"context"
	"io"
	"os"
	"strings"
	"time"

	"github.com/alecthomas/kong"

	"github.com/plangate-gc/plangate-gc/internal/clidoc"
	"github.com/plangate-gc/plangate-gc/internal/cliparse"
	"github.com/plangate-gc/plangate-gc/internal/progress"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/command"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/config"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/stop"
	"github.com/plangate-gc/plangate-gc/internal/version"
	"github.com/plangate-gc/plangate-gc/render"
)

// cli is river-gc's command line: the flags of a run (config.Flags) and
// --version.
type cli struct {
	config.Flags
	Version kong.VersionFlag `help:"${h_version}"`
}

// The test binary pins these (main_test.go): sinceMs is the record's
// durationMs, the one field that differs between identical runs;
// progressInterval is the time between progress lines off a terminal;
// pinAllocated zeroes the record's allocated bytes, which depend on the
// file system's block size.
var (
	sinceMs          = func(start time.Time) int64 { return time.Since(start).Milliseconds() }
	progressInterval = progress.LogInterval
	pinAllocated     = false
)

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
	start := time.Now()
	var c cli
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
		if h := config.Habit(cliparse.Translate(err), args); h != nil {
			return h
		}
		return &config.Error{Err: cliparse.Translate(err)}
	}
	c.Exclude = append(c.Exclude, repeated["exclude"]...)
	c.Scope = append(c.Scope, repeated["scope"]...)
	c.Explain = append(c.Explain, repeated["explain"]...)
	cfg, err := config.Load(c.Flags, setFlags(kctx))
	if err != nil {
		return err
	}
	defer cfg.Run.Root.Close()
	if cfg.Run.Mode == gc.Force {
		ctx = stop.Force(ctx, exit)
	}
	return command.Run(ctx, cfg, command.Options{Start: start, Since: sinceMs, ProgressEvery: progressInterval, ZeroAllocated: pinAllocated},
		stdout, stderr)
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
