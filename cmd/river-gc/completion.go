//go:build linux

package main

import (
	"io"
	"strconv"

	"github.com/alecthomas/kong"

	"github.com/plangate-gc/plangate-gc/internal/clidoc"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/config"
)

// model is kong's model of river-gc's flags, built with run's options:
// completion scripts and the man page are generated from it, never from a
// list of our own. The one subcommand, completion, is answered before kong
// parses (main1), so it is added here as what it accepts: one of shells.
func model() (clidoc.Command, error) {
	vars := clidoc.Vars(helpEnglish, nil, false)
	vars["version"], vars["lang"] = "river-gc", "en"
	parser, err := kong.New(&cli{}, kong.Name("river-gc"), kong.Description(description), vars)
	if err != nil {
		return clidoc.Command{}, err
	}
	m := clidoc.FromKong(parser.Model)
	m.Commands = append(m.Commands, clidoc.Command{Name: "completion", Help: "Print a shell completion script: bash, zsh or fish.",
		Args: []clidoc.Arg{{Name: "shell", Help: "The shell: bash, zsh or fish.", Kind: clidoc.Values, Values: shells}}})
	return m, nil
}

// shells are the shells completion writes scripts for.
var shells = []string{"bash", "zsh", "fish"}

// completion answers `river-gc completion bash|zsh|fish` (river-gc takes
// no other positional argument, so the word cannot be mistaken for one).
func completion(stdout io.Writer, args []string) error {
	if len(args) != 1 {
		return config.Invalid("gc-cfg-completion-one")
	}
	m, err := model()
	if err != nil {
		return err
	}
	var script string
	switch args[0] {
	case "bash":
		script = clidoc.Bash(m)
	case "zsh":
		script = clidoc.Zsh(m)
	case "fish":
		script = clidoc.Fish(m)
	default:
		return config.Invalid("gc-cfg-completion-shell", strconv.Quote(args[0]))
	}
	_, err = io.WriteString(stdout, script)
	return err
}
