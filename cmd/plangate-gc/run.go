package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/alecthomas/kong"

	"github.com/plangate-gc/plangate-gc/internal/cliparse"
	"github.com/plangate-gc/plangate-gc/pipeline"
	"github.com/plangate-gc/plangate-gc/render"
	"github.com/plangate-gc/plangate-gc/schemas"
)

// cli is the command line: judging stdin is the default command.
type cli struct {
	Judge   judgeCmd         `cmd:"" default:"withargs" help:"Judge the JSON documents on stdin (the default command)."`
	Schema  schemaCmd        `cmd:"" help:"Print the input JSON Schema."`
	Eval    evalCmd          `cmd:"" help:"Run the evaluation harness over fixture cases."`
	Version kong.VersionFlag `help:"Print the version and exit."`
}

type judgeCmd struct {
	JSON  bool   `help:"Write one JSON object per document instead of review lines."`
	Lang  string `enum:"ja,en" default:"ja" help:"Language of the review lines and messages (ja, en)."`
	Input string `short:"i" placeholder:"FILE" help:"Read the documents from FILE instead of stdin."`
}

type schemaCmd struct{}

const description = `Deterministic KEEP/REMOVE judgement of River Review GC inventories.

Reads one or more JSON documents ({"inventory", "retention", "now", ...}) and
prints, per document, Japanese <file>:<line>: <message> review lines, or with
--json one JSON object per line. A document that fails the gate prints the
NO_REVIEW line; the reasons go to stderr.

Examples:
  plangate-gc < fixtures/seed-good-100-entries-7-aged/input.json
  plangate-gc --json --lang en < inventory.json
  river-gc --emit-inventory | plangate-gc --json
  plangate-gc schema > input.schema.json
  plangate-gc eval fixtures/

Exit codes: 0 for every verdict (ok, no_review, handoff), 1 for an I/O
failure or a failing evaluation, 2 for a usage error.`

// env is what a command may touch: the process's streams.
type env struct {
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// run parses args and executes the command. Verdicts are output, not
// errors; an error is a usage error (*usageError) or a failure.
func run(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	var c cli
	kctx, done, err := cliparse.Parse(&c, args, kong.Name("plangate-gc"), kong.Description(description),
		kong.Writers(stdout, stderr), kong.Vars{"version": version()})
	switch {
	case done:
		return nil
	case err != nil:
		return &usageError{err: err}
	}
	return kctx.Run(&env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr})
}

// Run judges every document of the input stream.
func (j *judgeCmd) Run(e *env) error {
	in := e.stdin
	if j.Input != "" {
		f, err := os.Open(j.Input)
		if err != nil {
			return fmt.Errorf("opening input: %w", err)
		}
		defer f.Close()
		in = f
	}
	out := bufio.NewWriterSize(e.stdout, 1<<16)
	err := pipeline.Run(in, out, e.stderr, pipeline.Options{JSON: j.JSON, Lang: render.Lang(j.Lang)})
	// The documents completed before a read failure keep their output.
	if ferr := out.Flush(); ferr != nil && err == nil {
		err = fmt.Errorf("writing output: %w", ferr)
	}
	return err
}

// Run prints the embedded input schema.
func (schemaCmd) Run(e *env) error {
	_, err := e.stdout.Write(schemas.Input)
	return err
}

// version reports the module version and VCS revision from build info.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "plangate-gc (unknown version)"
	}
	v := "plangate-gc " + bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" {
			v += " " + s.Value
		}
	}
	return v
}
