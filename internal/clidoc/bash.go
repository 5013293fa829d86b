package clidoc

import (
	"fmt"
	"strings"
)

// Bash returns a bash completion script for c: source it, or put it in
// bash-completion's completions directory under c.Name. It needs bash 4
// (compopt) and nothing from the bash-completion package.
func Bash(c Command) string {
	fn := funcName(c.Name)
	var b strings.Builder
	fmt.Fprintf(&b, "# bash completion for %s; generated from its parser, do not edit.\n", c.Name)
	fmt.Fprintf(&b, "%s() {\n", fn)
	b.WriteString("    local cur prev cmd i w\n")
	b.WriteString("    COMPREPLY=()\n")
	b.WriteString("    cur=\"${COMP_WORDS[COMP_CWORD]}\"\n")
	b.WriteString("    prev=\"\"\n")
	b.WriteString("    (( COMP_CWORD > 0 )) && prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n")
	// --flag=value: bash splits at '=' (COMP_WORDBREAKS).
	b.WriteString("    if [[ $cur == = ]]; then\n        cur=\"\"\n    elif [[ $prev == = ]] && (( COMP_CWORD > 1 )); then\n        prev=\"${COMP_WORDS[COMP_CWORD-2]}\"\n    fi\n")
	b.WriteString("    cmd=\"\"\n")
	if len(c.Commands) > 0 {
		b.WriteString("    for (( i = 1; i < COMP_CWORD; i++ )); do\n        w=\"${COMP_WORDS[i]}\"\n        case \"$w\" in\n")
		c.Walk(func(path []string, sub Command) {
			if len(path) == 1 {
				fmt.Fprintf(&b, "            %s) cmd=%s; break ;;\n", sub.Name, sub.Name)
			}
		})
		b.WriteString("        esac\n    done\n")
	}
	// The value of the previous flag.
	b.WriteString("    case \"$prev\" in\n")
	c.Walk(func(path []string, sub Command) {
		for _, f := range sub.Flags {
			if f.Switch() {
				continue
			}
			fmt.Fprintf(&b, "        %s)\n            %s\n            return ;;\n", flagPattern(f), bashValue(f.Kind, f.Values))
		}
	})
	b.WriteString("    esac\n")
	b.WriteString("    case \"$cmd\" in\n")
	c.Walk(func(path []string, sub Command) {
		if len(path) > 1 {
			return
		}
		label := `""`
		if len(path) == 1 {
			label = path[0]
		}
		flags := c.flagWords()
		if len(path) == 1 {
			flags += " " + sub.flagWords()
		}
		fmt.Fprintf(&b, "        %s)\n", label)
		fmt.Fprintf(&b, "            if [[ $cur == -* ]]; then\n                COMPREPLY=( $(compgen -W %q -- \"$cur\") )\n                return\n            fi\n", strings.TrimSpace(flags))
		switch {
		case len(path) == 0 && len(c.Commands) > 0:
			var names []string
			for _, s := range c.Commands {
				names = append(names, s.Name)
			}
			fmt.Fprintf(&b, "            COMPREPLY=( $(compgen -W %q -- \"$cur\") )\n", strings.Join(names, " "))
		case len(sub.Args) > 0:
			fmt.Fprintf(&b, "            %s\n", bashValue(sub.Args[0].Kind, sub.Args[0].Values))
		}
		b.WriteString("            ;;\n")
	})
	b.WriteString("    esac\n}\n")
	fmt.Fprintf(&b, "complete -F %s %s\n", fn, c.Name)
	return b.String()
}

// flagWords lists the flags of c as words for compgen.
func (c Command) flagWords() string {
	var words []string
	for _, f := range c.Flags {
		if f.Short != 0 {
			words = append(words, "-"+string(f.Short))
		}
		words = append(words, "--"+f.Name)
	}
	return strings.Join(words, " ")
}

// flagPattern is the case pattern matching a flag's spellings.
func flagPattern(f Flag) string {
	if f.Short != 0 {
		return fmt.Sprintf("-%c|--%s", f.Short, f.Name)
	}
	return "--" + f.Name
}

// bashValue is the statement completing a value of the given kind.
func bashValue(kind Kind, values []string) string {
	switch kind {
	case Values:
		return fmt.Sprintf("COMPREPLY=( $(compgen -W %q -- \"$cur\") )", strings.Join(values, " "))
	case Files:
		return "compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -f -- \"$cur\") )"
	case Dirs:
		return "compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -d -- \"$cur\") )"
	}
	return "COMPREPLY=()"
}
