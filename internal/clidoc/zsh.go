package clidoc

import (
	"fmt"
	"strings"
)

// Zsh returns a zsh completion function for c: put it in a directory of
// $fpath as _<name>, or source it after compinit.
func Zsh(c Command) string {
	fn := funcName(c.Name)
	var b strings.Builder
	fmt.Fprintf(&b, "#compdef %s\n# zsh completion for %s; generated from its parser, do not edit.\n\n", c.Name, c.Name)
	fmt.Fprintf(&b, "%s() {\n", fn)
	if len(c.Commands) == 0 {
		b.WriteString("    _arguments -s -S \\\n")
		writeZshSpecs(&b, c.Flags, c.Args, "", false)
		b.WriteString("}\n\n")
		fmt.Fprintf(&b, "if [[ $zsh_eval_context[-1] == loadautofunc ]]; then\n    %s \"$@\"\nelse\n    compdef %s %s\nfi\n", fn, fn, c.Name)
		return b.String()
	}
	b.WriteString("    local curcontext=\"$curcontext\" state line\n    local -a commands\n    commands=(\n")
	for _, s := range c.Commands {
		fmt.Fprintf(&b, "        %s\n", zshQuote(zshEscapeColon(s.Name)+":"+firstSentence(s.Help)))
	}
	b.WriteString("    )\n    _arguments -C -s -S \\\n")
	writeZshSpecs(&b, c.Flags, nil, "", true)
	b.WriteString("    case $state in\n    command)\n        _describe -t commands command commands ;;\n    args)\n        case $line[1] in\n")
	for _, s := range c.Commands {
		fmt.Fprintf(&b, "        %s)\n            _arguments -s -S \\\n", s.Name)
		writeZshSpecs(&b, append(append([]Flag{}, c.Flags...), s.Flags...), s.Args, "    ", false)
		b.WriteString("            ;;\n")
	}
	b.WriteString("        esac ;;\n    esac\n}\n\n")
	fmt.Fprintf(&b, "if [[ $zsh_eval_context[-1] == loadautofunc ]]; then\n    %s \"$@\"\nelse\n    compdef %s %s\nfi\n", fn, fn, c.Name)
	return b.String()
}

// writeZshSpecs writes _arguments specs, one a line, ending the call.
// With commands, it adds the command and rest-of-line specs.
func writeZshSpecs(b *strings.Builder, flags []Flag, args []Arg, indent string, commands bool) {
	in := "        " + indent
	var specs []string
	for _, f := range flags {
		help := zshEscapeBrackets(firstSentence(f.Help))
		action := ""
		if !f.Switch() {
			action = ":" + zshEscapeColon(f.Placeholder) + ":" + zshAction(f.Kind, f.Values)
		}
		rep := ""
		if f.Repeatable {
			rep = "*"
		}
		eq := ""
		if !f.Switch() {
			eq = "="
		}
		if f.Short != 0 {
			specs = append(specs, zshQuote(fmt.Sprintf("%s(-%c --%s)-%c[%s]%s", rep, f.Short, f.Name, f.Short, help, action)))
			specs = append(specs, zshQuote(fmt.Sprintf("%s(-%c --%s)--%s%s[%s]%s", rep, f.Short, f.Name, f.Name, eq, help, action)))
			continue
		}
		specs = append(specs, zshQuote(fmt.Sprintf("%s--%s%s[%s]%s", rep, f.Name, eq, help, action)))
	}
	if commands {
		specs = append(specs, zshQuote("1: :->command"), zshQuote("*:: :->args"))
	}
	for i, a := range args {
		opt := ""
		if a.Optional {
			opt = ":"
		}
		specs = append(specs, zshQuote(fmt.Sprintf("%d:%s%s:%s", i+1, opt, zshEscapeColon(a.Name), zshAction(a.Kind, a.Values))))
	}
	for i, s := range specs {
		end := " \\\n"
		if i == len(specs)-1 {
			end = "\n"
		}
		b.WriteString(in + s + end)
	}
}

// zshAction is the _arguments action for a value of the given kind.
func zshAction(kind Kind, values []string) string {
	switch kind {
	case Values:
		return "(" + strings.Join(values, " ") + ")"
	case Files:
		return "_files"
	case Dirs:
		return "_files -/"
	}
	return " "
}

func zshQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func zshEscapeColon(s string) string { return strings.ReplaceAll(s, ":", `\:`) }

func zshEscapeBrackets(s string) string {
	return strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`, ":", `\:`).Replace(s)
}
