package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/alecthomas/kong"
	"golang.org/x/term"

	"github.com/plangate-gc/plangate-gc/internal/clidoc"
	"github.com/plangate-gc/plangate-gc/internal/cliparse"
	"github.com/plangate-gc/plangate-gc/internal/pipeline"
	"github.com/plangate-gc/plangate-gc/internal/version"
	"github.com/plangate-gc/plangate-gc/render"
	"github.com/plangate-gc/plangate-gc/schemas"
)

// cli is the command line. Judging stdin is the default (hidden) command;
// its flags live on the root so that `plangate-gc --help` shows them.
type cli struct {
	Format  string           `placeholder:"FORMAT" complete:"text,review,json,findings,artifact" help:"${h_format}"`
	JSON    bool             `help:"${h_json}"`
	Merge   bool             `help:"${h_merge}"`
	Lang    string           `enum:"ja,en" default:"ja" help:"${h_lang}"`
	Input   string           `short:"i" placeholder:"FILE" help:"${h_input}"`
	Version kong.VersionFlag `help:"${h_version}"`

	Judge  judgeCmd  `cmd:"" default:"1" hidden:"" help:"${h_judge}"`
	Schema schemaCmd `cmd:"" help:"${h_schema}"`
	Eval   evalCmd   `cmd:"" help:"${h_eval}"`
	Help   helpCmd   `cmd:"" help:"${h_help}"`

	Completion completionCmd `cmd:"" help:"${h_completion}"`
}

type judgeCmd struct{}

type schemaCmd struct {
	Name string `arg:"" optional:"" enum:"input,result,gc-result" default:"input" help:"${h_schema_name}"`
}

type helpCmd struct {
	Command []string `arg:"" optional:"" help:"${h_help_command}"`
}

const description = `Deterministic KEEP/REMOVE judgement of River Review GC inventories.

Without a command, plangate-gc judges: it reads one or more JSON documents ({"inventory", "retention", "now", ...}) and
prints, per document, Japanese <file>:<line>: <message> review lines, or with
--format json|findings|artifact one JSON object per line. A document that
fails the gate prints the NO_REVIEW line; the reasons go to stderr.

Examples:
` + examples + `
Exit codes: 0 for every verdict (ok, no_review, handoff), 1 for an I/O
failure or a failing evaluation, 2 for a usage error.`

// examples are the help's examples, in every language.
const examples = `  plangate-gc < fixtures/seed-good-100-entries-7-aged/input.json
  plangate-gc --json --lang en < inventory.json
  plangate-gc --format findings < inventory.json
  river-gc --emit-inventory | plangate-gc --json
  plangate-gc schema result > result.schema.json
  plangate-gc eval fixtures/
`

// stdinHint is printed on stderr before reading a terminal.
const stdinHint = "plangate-gc: reading JSON documents from stdin (Ctrl-D to end); see plangate-gc --help\n"

// env is what a command may touch: the process's streams and the parsed
// root flags.
type env struct {
	ctx        context.Context
	stdin      io.Reader
	stdout     io.Writer
	stderr     io.Writer
	args       []string
	cli        *cli
	isTerminal func(io.Reader) bool
}

// isTerminal reports whether r is a terminal; tests replace it.
var isTerminal = func(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// run parses args and executes the command. Verdicts are output, not
// errors; an error is a usage error (*usageError) or a failure.
func run(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	var c cli
	lang := render.LangFromEnv(os.Getenv) // the help's language (SPEC B7)
	vars := clidoc.Vars(helpEnglish, helpJapanese, lang == render.Japanese)
	vars["version"] = "plangate-gc " + version.String()
	options := []kong.Option{kong.Name("plangate-gc"),
		kong.Description(map[bool]string{true: descriptionJapanese, false: description}[lang == render.Japanese]),
		kong.Writers(stdout, stderr), vars}
	if lang == render.Japanese {
		options = append(options, kong.Help(cliparse.WrapWide)) // kong breaks lines only at spaces (decision 244)
	}
	kctx, done, err := cliparse.Parse(&c, args, options...)
	switch {
	case done:
		return nil
	case err != nil:
		return &usageError{err: cliparse.Translate(err)}
	}
	return kctx.Run(&env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr, args: args, cli: &c, isTerminal: isTerminal})
}

// format resolves --format and its alias --json.
func (c *cli) format() (render.Format, error) {
	switch c.Format {
	case "":
		if c.JSON {
			return render.FormatJSON, nil
		}
		return render.FormatText, nil
	case "text", "json", "findings", "artifact", "review":
		if c.JSON && c.Format != "json" {
			return "", fmt.Errorf("--json is --format json, but --format %s was given too; use one of them", c.Format)
		}
		return render.Format(c.Format), nil
	}
	return "", fmt.Errorf("--format must be text, review, json, findings or artifact, not %q", c.Format)
}

// Run judges every document of the input stream.
func (judgeCmd) Run(e *env) error {
	format, err := e.cli.format()
	if err != nil {
		return &usageError{err: err}
	}
	if e.cli.Merge && format != render.FormatFindings && format != render.FormatArtifact {
		return &usageError{err: fmt.Errorf("--merge needs --format findings or --format artifact")}
	}
	in := e.stdin
	if e.cli.Input != "" {
		f, err := os.Open(e.cli.Input)
		if err != nil {
			return fmt.Errorf("opening input: %w", err)
		}
		defer f.Close()
		in = f
	} else if e.isTerminal(in) {
		fmt.Fprint(e.stderr, stdinHint)
	}
	out := bufio.NewWriterSize(e.stdout, 1<<16)
	err = pipeline.Run(in, out, e.stderr, pipeline.Options{Format: format, Lang: render.Lang(e.cli.Lang), Merge: e.cli.Merge})
	// The documents completed before a read failure keep their output.
	if ferr := out.Flush(); ferr != nil && err == nil {
		err = fmt.Errorf("writing output: %w", ferr)
	}
	return err
}

// Run prints the embedded schema asked for.
func (s schemaCmd) Run(e *env) error {
	_, err := e.stdout.Write(schemas.ByName(s.Name))
	return err
}

// Run prints the help of the root or of the named command, as --help does.
func (h helpCmd) Run(e *env) error {
	return run(e.ctx, e.stdin, e.stdout, e.stderr, append(append([]string{}, h.Command...), "--help"))
}
