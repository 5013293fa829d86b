package clidoc

import (
	"fmt"
	"slices"
	"strings"
)

// Page is what a man page says beyond the parser's model.
type Page struct {
	Source  string   // the footer's source, e.g. "plangate-gc"
	Manual  string   // the header's manual title, e.g. "User Commands"
	SeeAlso []string // other pages, e.g. "plangate-gc(1)"
	// Synopsis lines are added to the parser's, for what its model
	// does not hold: command name first, then words; an upper-case word
	// is a placeholder.
	Synopsis [][]string
	// Sections are added after OPTIONS (and COMMANDS), for what the
	// parser's model does not hold.
	Sections []Section
}

// Section is a man page section of plain paragraphs.
type Section struct {
	Title string
	Text  string // paragraphs as writeParagraphs takes them
}

// Man returns c's man page in roff (man(7) macros), section 1. It carries
// no date and no version, so it changes only when the parser does.
func Man(c Command, p Page) string {
	var b strings.Builder
	fmt.Fprintf(&b, ".\\\" Generated from the parser of %s; do not edit.\n", c.Name)
	fmt.Fprintf(&b, ".TH %s 1 \"\" %q %q\n", strings.ToUpper(c.Name), p.Source, p.Manual)
	b.WriteString(".SH NAME\n")
	fmt.Fprintf(&b, "%s \\- %s\n", c.Name, roffText(strings.TrimSuffix(c.Help, ".")))
	b.WriteString(".SH SYNOPSIS\n")
	fmt.Fprintf(&b, ".B %s\n[\\fIflags\\fR]\n", c.Name)
	for _, words := range p.Synopsis {
		fmt.Fprintf(&b, ".br\n.B %s\n", roffText(strings.Join(words[:1], "")))
		for _, w := range words[1:] {
			if strings.ToUpper(w) == w {
				fmt.Fprintf(&b, "\\fI%s\\fR\n", roffText(w))
			} else {
				fmt.Fprintf(&b, "\\fB%s\\fR\n", roffText(w))
			}
		}
	}
	for _, s := range c.Commands {
		fmt.Fprintf(&b, ".br\n.B %s %s\n[\\fIflags\\fR]", c.Name, s.Name)
		for _, a := range s.Args {
			if a.Optional {
				fmt.Fprintf(&b, " [\\fI%s\\fR]", roffText(strings.ToUpper(a.Name)))
			} else {
				fmt.Fprintf(&b, " \\fI%s\\fR", roffText(strings.ToUpper(a.Name)))
			}
		}
		b.WriteString("\n")
	}
	if c.Detail != "" {
		b.WriteString(".SH DESCRIPTION\n")
		writeParagraphs(&b, c.Detail)
	}
	b.WriteString(".SH OPTIONS\n")
	writeFlags(&b, c.Flags)
	if len(c.Commands) > 0 {
		b.WriteString(".SH COMMANDS\n")
		for _, s := range c.Commands {
			fmt.Fprintf(&b, ".SS %s\n", roffText(s.Name))
			writeParagraphs(&b, s.Help)
			for _, a := range s.Args {
				fmt.Fprintf(&b, ".TP\n\\fI%s\\fR\n%s\n", roffText(strings.ToUpper(a.Name)), roffText(a.Help+valuesNote(a.Help, a.Kind, a.Values, "")))
			}
			writeFlags(&b, s.Flags)
		}
	}
	for _, sec := range p.Sections {
		fmt.Fprintf(&b, ".SH %s\n", roffText(strings.ToUpper(sec.Title)))
		writeParagraphs(&b, sec.Text)
	}
	if len(p.SeeAlso) > 0 {
		b.WriteString(".SH SEE ALSO\n")
		for i, s := range p.SeeAlso {
			name, sect, ok := strings.Cut(strings.TrimSuffix(s, ")"), "(")
			sep := ","
			if i == len(p.SeeAlso)-1 {
				sep = ""
			}
			if ok {
				fmt.Fprintf(&b, ".BR %s (%s)%s\n", roffText(name), sect, sep)
			} else {
				fmt.Fprintf(&b, "%s%s\n", roffText(s), sep)
			}
		}
	}
	return b.String()
}

// writeFlags writes one tagged paragraph per flag.
func writeFlags(b *strings.Builder, flags []Flag) {
	for _, f := range flags {
		b.WriteString(".TP\n")
		if f.Short != 0 {
			fmt.Fprintf(b, "\\fB\\-%c\\fR, ", f.Short)
		}
		fmt.Fprintf(b, "\\fB\\-\\-%s\\fR", roffText(f.Name))
		if !f.Switch() {
			fmt.Fprintf(b, " \\fI%s\\fR", roffText(f.Placeholder))
		}
		b.WriteString("\n")
		text := f.Help + valuesNote(f.Help, f.Kind, f.Values, f.Default)
		if f.Repeatable && !strings.Contains(strings.ToLower(f.Help), "repeatable") {
			text += " Repeatable."
		}
		b.WriteString(roffLine(text) + "\n")
	}
}

// valuesNote names the accepted values and the default, unless the help
// already does.
func valuesNote(help string, kind Kind, values []string, def string) string {
	var s string
	if kind == Values && slices.ContainsFunc(values, func(v string) bool { return !strings.Contains(help, v) }) {
		s = " Values: " + strings.Join(values, ", ") + "."
	}
	if def != "" && !strings.Contains(strings.ToLower(help), "default") {
		s += " Default: " + def + "."
	}
	return s
}

// writeParagraphs writes text: blank lines separate paragraphs, and the
// indented lines of a paragraph are kept as written (examples).
func writeParagraphs(b *strings.Builder, text string) {
	for i, para := range strings.Split(strings.TrimSpace(text), "\n\n") {
		if i > 0 {
			b.WriteString(".PP\n")
		}
		wrote, verbatim := false, false
		for _, l := range strings.Split(para, "\n") {
			indented := strings.HasPrefix(l, "  ")
			switch {
			case indented && !verbatim:
				if wrote {
					b.WriteString(".PP\n")
				}
				b.WriteString(".RS 4\n.nf\n")
			case !indented && verbatim:
				b.WriteString(".fi\n.RE\n.PP\n")
			}
			verbatim, wrote = indented, true
			b.WriteString(roffLine(strings.TrimPrefix(l, "  ")) + "\n")
		}
		if verbatim {
			b.WriteString(".fi\n.RE\n")
		}
	}
}

// roffText escapes text for use inside a roff line.
func roffText(s string) string {
	return strings.NewReplacer(`\`, `\e`, "-", `\-`).Replace(s)
}

// roffLine escapes a whole input line: text that would start with a
// control character gets a zero-width guard.
func roffLine(s string) string {
	s = roffText(strings.TrimSpace(s))
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}
