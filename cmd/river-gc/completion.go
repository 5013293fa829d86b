//go:build linux

package main

import (
	"io"

	"github.com/alecthomas/kong"

	"github.com/plangate-gc/plangate-gc/internal/clidoc"
)

// model is kong's model of river-gc's flags, built with run's options:
// completion scripts and the man page are generated from it, never from a
// list of our own.
func model() (clidoc.Command, error) {
	parser, err := kong.New(&cli{}, kong.Name("river-gc"), kong.Description(description),
		kong.Vars{"version": "river-gc", "lang": "en"})
	if err != nil {
		return clidoc.Command{}, err
	}
	return clidoc.FromKong(parser.Model), nil
}

// completion answers `river-gc completion bash|zsh|fish` (river-gc takes
// no other positional argument, so the word cannot be mistaken for one).
func completion(stdout io.Writer, args []string) error {
	if len(args) != 1 {
		return configErr("gc-cfg-completion-one")
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
		return configErr("gc-cfg-completion-shell", q(args[0]))
	}
	_, err = io.WriteString(stdout, script)
	return err
}
