package clidoc

import (
	"fmt"
	"strings"
)

// Fish returns a fish completion script for c: put it in
// ~/.config/fish/completions/<name>.fish, or source it.
func Fish(c Command) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# fish completion for %s; generated from its parser, do not edit.\n", c.Name)
	fmt.Fprintf(&b, "complete -c %s -f\n", c.Name)
	var names []string
	for _, s := range c.Commands {
		names = append(names, s.Name)
	}
	noCmd := ""
	if len(names) > 0 {
		noCmd = fmt.Sprintf(" -n 'not __fish_seen_subcommand_from %s'", strings.Join(names, " "))
	}
	for _, s := range c.Commands {
		fmt.Fprintf(&b, "complete -c %s%s -a %s -d %s\n", c.Name, noCmd, s.Name, fishQuote(firstSentence(s.Help)))
	}
	for _, f := range c.Flags {
		b.WriteString(fishFlag(c.Name, "", f))
	}
	for _, s := range c.Commands {
		cond := " -n '__fish_seen_subcommand_from " + s.Name + "'"
		for _, f := range s.Flags {
			b.WriteString(fishFlag(c.Name, cond, f))
		}
		if len(s.Args) > 0 {
			if v := fishValue(s.Args[0].Kind, s.Args[0].Values); v != "" {
				fmt.Fprintf(&b, "complete -c %s%s%s\n", c.Name, cond, v)
			}
		}
	}
	return b.String()
}

// fishFlag is the complete line of one flag.
func fishFlag(name, cond string, f Flag) string {
	line := fmt.Sprintf("complete -c %s%s -l %s", name, cond, f.Name)
	if f.Short != 0 {
		line += fmt.Sprintf(" -s %c", f.Short)
	}
	switch {
	case f.Switch():
	case f.Kind == Files:
		line += " -r -F"
	default: // -x: a value, and no file names
		line += " -x" + fishValue(f.Kind, f.Values)
	}
	return line + " -d " + fishQuote(firstSentence(f.Help)) + "\n"
}

// fishValue is the option completing a value of the given kind.
func fishValue(kind Kind, values []string) string {
	switch kind {
	case Values:
		return " -a " + fishQuote(strings.Join(values, " "))
	case Files:
		return " -F"
	case Dirs:
		return " -a '(__fish_complete_directories)'"
	}
	return ""
}

func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}
