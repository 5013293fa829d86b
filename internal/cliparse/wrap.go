package cliparse

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/kong"
	"golang.org/x/text/width"
)

// WrapWide is a kong help printer for text without spaces between words
// (Japanese): kong wraps help through go/doc, which breaks lines only at
// spaces and counts runes, not columns, so a Japanese paragraph ran on
// to twice the terminal's width. WrapWide lets kong lay the help out,
// then breaks every line wider than the terminal (COLUMNS, else the
// terminal's width, else 80 columns) by display width: at a space, after
// Japanese punctuation, or between two wide characters, never before
// closing punctuation nor after opening punctuation (a simple kinsoku),
// continuing at the indentation of the line's text (the description
// column of a flag). A line it cannot break (one long word) stays whole.
//
// kong is asked for its layout at a width no line reaches (COLUMNS, the
// only width kong reads for a buffer, is set for that call and put back),
// so that every break is this one's: kong's own would come early, its
// count of runes being half the columns of Japanese text.
func WrapWide(options kong.HelpOptions, ctx *kong.Context) error {
	out := ctx.Stdout
	w := helpWidth(out)
	var buf bytes.Buffer
	ctx.Stdout = &buf
	old, had := os.LookupEnv("COLUMNS")
	os.Setenv("COLUMNS", "100000")
	err := kong.DefaultHelpPrinter(options, ctx)
	if had {
		os.Setenv("COLUMNS", old)
	} else {
		os.Unsetenv("COLUMNS")
	}
	ctx.Stdout = out
	if err != nil {
		return err
	}
	_, err = out.Write(wrapLines(buf.Bytes(), w))
	return err
}

// helpWidth is the width kong would use for w: COLUMNS, else the
// terminal's, else 80.
func helpWidth(w any) int {
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	if f, ok := w.(*os.File); ok {
		if n := terminalWidth(f); n > 0 {
			return n
		}
	}
	return 80
}

// wrapLines breaks each line of text wider than w columns (wrapLine).
func wrapLines(text []byte, w int) []byte {
	var out bytes.Buffer
	for line := range strings.Lines(string(text)) {
		body := strings.TrimSuffix(line, "\n")
		out.WriteString(wrapLine(body, w))
		if len(body) < len(line) {
			out.WriteByte('\n')
		}
	}
	return out.Bytes()
}

// wrapLine breaks one line into lines of at most w columns where it can;
// continuations start at the column where the line's text (after its
// indentation, or after a flag's two-space gap) begins.
func wrapLine(line string, w int) string {
	if cols(line) <= w {
		return line
	}
	indent := strings.Repeat(" ", textColumn(line))
	if cols(indent) > w-8 { // too little room left on a narrow terminal
		indent = ""
	}
	var b strings.Builder
	for rest, first := line, true; ; first = false {
		if !first {
			rest = indent + strings.TrimLeft(rest, " ")
		}
		cut := breakAt(rest, w, len(indent))
		if cut <= 0 || cut >= len(rest) {
			b.WriteString(rest)
			return b.String()
		}
		b.WriteString(strings.TrimRight(rest[:cut], " ") + "\n")
		rest = rest[cut:]
	}
}

// textColumn is the column of a line's text: after an example's "  # "
// (its comment), after a flag's first gap of two or more spaces when the
// line is a flag row ("  -f, --force  Text"), else after its leading
// spaces.
func textColumn(line string) int {
	lead := len(line) - len(strings.TrimLeft(line, " "))
	if at := strings.Index(line, "  # "); at > lead {
		return cols(line[:at]) + 4 // an example's comment: continue under its text
	}
	if strings.HasPrefix(line[lead:], "-") {
		if gap := strings.Index(line[lead:], "  "); gap > 0 {
			at := lead + gap
			return cols(line[:at]) + len(line[at:]) - len(strings.TrimLeft(line[at:], " "))
		}
	}
	return lead
}

// breakAt is the byte offset of the last place in s, before s exceeds w
// columns and after its first `from` bytes, where a line may end; 0 when
// there is none.
func breakAt(s string, w, from int) int {
	best, col := 0, 0
	var prev rune
	for i, r := range s {
		rw := runeCols(r)
		if i > from && allowed(prev, r) {
			best = i
		}
		if col+rw > w {
			return best
		}
		col += rw
		prev = r
	}
	return len(s)
}

// allowed reports whether a line may end between prev and r.
func allowed(prev, r rune) bool {
	switch {
	case r == ' ':
		return prev != ' '
	case prev == ' ':
		return false // the break goes before the space, where the gap starts
	case strings.ContainsRune("、。，．）」』】〕・ー：；？！", r) || strings.ContainsRune("（「『【〔", prev):
		return false
	case strings.ContainsRune("、。，．）」』】〕", prev):
		return true
	}
	return runeCols(prev) == 2 && runeCols(r) == 2
}

// runeCols is the number of terminal columns r takes.
func runeCols(r rune) int {
	if r == utf8.RuneError {
		return 1
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// cols is the number of terminal columns s takes.
func cols(s string) int {
	n := 0
	for _, r := range s {
		n += runeCols(r)
	}
	return n
}
