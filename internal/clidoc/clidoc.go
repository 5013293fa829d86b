// Package clidoc writes shell completion scripts (bash, zsh, fish) and
// man pages from kong's own model of a command line, so that what the
// shell offers and what the manual lists are what the parser accepts.
//
// It is pure: it reads a *kong.Application and returns text. Values are
// offered from a flag's enum tag, or from a `complete:"a,b,c"` tag where
// the command validates the values itself; a flag whose placeholder is
// DIR completes directories, PATH or FILE completes files, any other
// value-taking flag completes nothing.
package clidoc

import (
	"slices"
	"strings"

	"github.com/alecthomas/kong"
)

// Kind says what a flag's or argument's value completes to.
type Kind int

const (
	// None: a value the shell cannot guess (a number, a timestamp).
	None Kind = iota
	// Values: one of Flag.Values.
	Values
	// Files: a file name.
	Files
	// Dirs: a directory name.
	Dirs
)

// Flag is one flag of a command, as the parser knows it.
type Flag struct {
	Name        string   // long name, without dashes
	Short       rune     // 0 when none
	Placeholder string   // the value's name (empty for a switch)
	Help        string   // the parser's help text
	Default     string   // empty when none
	Repeatable  bool     // a slice flag
	Kind        Kind     // what its value completes to
	Values      []string // for Kind Values, in the declared order
}

// Switch reports whether the flag takes no value.
func (f Flag) Switch() bool { return f.Placeholder == "" }

// Arg is a positional argument of a command.
type Arg struct {
	Name     string
	Help     string
	Optional bool
	Kind     Kind
	Values   []string
}

// Command is a command (or the application itself) with its flags,
// positional arguments and visible subcommands.
type Command struct {
	Name     string // the binary's name for the root
	Help     string // the first paragraph of the description for the root
	Detail   string // the rest of the description (root only)
	Flags    []Flag // --help included, sorted by name
	Args     []Arg
	Commands []Command
}

// FromKong walks kong's model. Hidden flags and commands are left out;
// the --help flag kong adds is kept, since the parser accepts it.
func FromKong(app *kong.Application) Command {
	c := fromNode(app.Node)
	help, detail, _ := strings.Cut(strings.TrimSpace(app.Help), "\n\n")
	c.Help, c.Detail = strings.TrimSpace(help), strings.TrimSpace(detail)
	return c
}

func fromNode(n *kong.Node) Command {
	c := Command{Name: n.Name, Help: n.Help}
	for _, f := range n.Flags {
		if f.Hidden {
			continue
		}
		c.Flags = append(c.Flags, fromFlag(f))
	}
	slices.SortFunc(c.Flags, func(a, b Flag) int { return strings.Compare(a.Name, b.Name) })
	for _, p := range n.Positional {
		kind, values := valueKind(p, strings.ToUpper(p.Name))
		c.Args = append(c.Args, Arg{Name: p.Name, Help: p.Help, Optional: !p.Required, Kind: kind, Values: values})
	}
	for _, child := range n.Children {
		if child.Hidden || child.Type != kong.CommandNode {
			continue
		}
		c.Commands = append(c.Commands, fromNode(child))
	}
	return c
}

func fromFlag(f *kong.Flag) Flag {
	out := Flag{Name: f.Name, Short: f.Short, Help: f.Help, Repeatable: f.IsSlice()}
	if !f.IsBool() && !f.IsCounter() {
		out.Placeholder = f.PlaceHolder
		if out.Placeholder == "" {
			out.Placeholder = strings.ToUpper(f.Name)
		}
		if f.HasDefault {
			out.Default = f.Default
		}
		out.Kind, out.Values = valueKind(f.Value, out.Placeholder)
	}
	return out
}

// valueKind derives what a value completes to from the parser's tags.
func valueKind(v *kong.Value, placeholder string) (Kind, []string) {
	list := v.Enum
	if list == "" && v.Tag != nil {
		list = v.Tag.Get("complete")
	}
	if list != "" {
		var values []string
		for _, s := range strings.Split(list, ",") {
			values = append(values, strings.TrimSpace(s))
		}
		return Values, values
	}
	switch placeholder {
	case "DIR":
		return Dirs, nil
	case "PATH", "FILE":
		return Files, nil
	}
	return None, nil
}

// Walk calls fn for c and every subcommand, depth first, with the path
// of command names below the root.
func (c Command) Walk(fn func(path []string, c Command)) {
	var walk func(path []string, c Command)
	walk = func(path []string, c Command) {
		fn(path, c)
		for _, sub := range c.Commands {
			walk(append(slices.Clip(path), sub.Name), sub)
		}
	}
	walk(nil, c)
}

// FlagNames lists every long flag name of c and its subcommands, sorted
// and unique, with the leading dashes.
func (c Command) FlagNames() []string {
	var names []string
	c.Walk(func(_ []string, c Command) {
		for _, f := range c.Flags {
			names = append(names, "--"+f.Name)
		}
	})
	slices.Sort(names)
	return slices.Compact(names)
}

// firstSentence shortens a help text for a completion menu.
func firstSentence(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSuffix(s, ".")
}

// funcName turns a binary name into a shell identifier.
func funcName(name string) string {
	return "_" + strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
			return r
		}
		return '_'
	}, name)
}

// Vars returns a command's help texts as kong variables (tags name them
// ${h_…}), from ja when japanese is set, else from en; a fresh map each
// time, so that the caller may add its own.
func Vars(en, ja map[string]string, japanese bool) kong.Vars {
	texts := en
	if japanese {
		texts = ja
	}
	v := kong.Vars{}
	for k, t := range texts {
		v[k] = t
	}
	return v
}
