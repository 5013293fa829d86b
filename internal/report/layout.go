//go:build linux

package report

import (
	"io"
	"strconv"

	"github.com/plangate-gc/plangate-gc/render"
	"github.com/plangate-gc/plangate-gc/skill"
)

// strings writes the member k with an array of strings.
func (j *layout) strings(k string, ss []string) {
	j.key(k)
	j.begin('[')
	for _, s := range ss {
		j.item()
		j.str(s)
		j.spill()
	}
	j.end(']')
}

// layout writes JSON laid out as json.Indent(dst, src, "", "  ") lays
// out its compact form: a member or element on its own line, two spaces
// per level, ": " after a key, and an empty object or array as {} or [].
type layout struct {
	w     io.Writer
	b     []byte
	depth int
	first bool // nothing written yet in the innermost object or array
	err   error
}

// begin opens an object or array.
func (j *layout) begin(c byte) {
	j.b = append(j.b, c)
	j.depth++
	j.first = true
}

// end closes it: on its own line unless it is empty.
func (j *layout) end(c byte) {
	j.depth--
	if !j.first {
		j.newline()
	}
	j.b = append(j.b, c)
	j.first = false
}

// item starts the next element of an array (or member of an object).
func (j *layout) item() {
	if !j.first {
		j.b = append(j.b, ',')
	}
	j.first = false
	j.newline()
}

// key starts an object member; k needs no escaping (field names and
// scope names), as render.AppendString would leave it unchanged.
func (j *layout) key(k string) {
	j.item()
	j.b = append(j.b, '"')
	j.b = append(j.b, k...)
	j.b = append(j.b, '"', ':', ' ')
}

// pathScope writes the "path" and "scope" members that open every
// element of evidence[] and protectedFiles[].
func (j *layout) pathScope(path string, scope skill.Scope) {
	j.key("path")
	j.str(path)
	j.key("scope")
	j.str(string(scope))
}

// str writes a JSON string, escaped as everywhere in plangate-gc.
func (j *layout) str(s string) { j.b = render.AppendString(j.b, s) }

// lit writes a literal (a number, or a string already quoted).
func (j *layout) lit(s string) { j.b = append(j.b, s...) }

// int writes the member k with the integer value n.
func (j *layout) int(k string, n int64) {
	j.key(k)
	j.b = strconv.AppendInt(j.b, n, 10)
}

func (j *layout) newline() {
	j.b = append(j.b, '\n')
	for range j.depth {
		j.b = append(j.b, ' ', ' ')
	}
}

// spill writes the layout built so far once it fills a block.
func (j *layout) spill() {
	if len(j.b) >= 64<<10 {
		j.flush()
	}
}

// flush writes what is laid out so far; the first error sticks.
func (j *layout) flush() error {
	if j.err == nil && len(j.b) > 0 {
		_, j.err = j.w.Write(j.b)
	}
	j.b = j.b[:0]
	return j.err
}
