package main

import (
	"io"

	"github.com/alecthomas/kong"

	"github.com/plangate-gc/plangate-gc/internal/clidoc"
)

// completionCmd prints a shell completion script generated from kong's
// model of plangate-gc's command line.
type completionCmd struct {
	Shell string `arg:"" enum:"bash,zsh,fish" help:"${h_shell}"`
}

// Run writes the script for the shell asked for.
func (c completionCmd) Run(e *env, k *kong.Context) error {
	m := clidoc.FromKong(k.Model)
	var script string
	switch c.Shell {
	case "bash":
		script = clidoc.Bash(m)
	case "zsh":
		script = clidoc.Zsh(m)
	default:
		script = clidoc.Fish(m)
	}
	_, err := io.WriteString(e.stdout, script)
	return err
}

// model is kong's model of plangate-gc's command line, built with run's
// options, for the man page.
func model() (clidoc.Command, error) {
	vars := clidoc.Vars(helpEnglish, nil, false)
	vars["version"] = "plangate-gc"
	parser, err := kong.New(&cli{}, kong.Name("plangate-gc"), kong.Description(description), vars)
	if err != nil {
		return clidoc.Command{}, err
	}
	return clidoc.FromKong(parser.Model), nil
}
