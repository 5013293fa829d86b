package eval

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/plangate-gc/plangate-gc/render"
)

// WriteText prints one line per case, the failures indented below it, and
// as the very last line "N passed, N failed".
func (r Report) WriteText(w io.Writer) error { return r.WriteTextIn(w, render.English) }

// WriteTextIn is WriteText with the last line in lang (「成功 N 件、失敗 N
// 件」 in Japanese); the case lines keep their form, which scripts grep.
func (r Report) WriteTextIn(w io.Writer, lang render.Lang) error {
	var b strings.Builder
	for _, c := range r.Cases {
		status := "ok  "
		if !c.OK {
			status = "FAIL"
		}
		fmt.Fprintf(&b, "%s %s (%.1fms)", status, c.Name, c.Millis)
		if len(c.Updated) > 0 {
			fmt.Fprintf(&b, " updated %s", strings.Join(c.Updated, ", "))
		}
		b.WriteByte('\n')
		for _, f := range c.Failures {
			msg := strings.ReplaceAll(strings.TrimRight(f.Message, "\n"), "\n", "\n        ")
			fmt.Fprintf(&b, "    %s: %s\n", f.Check, msg)
		}
	}
	b.WriteString(render.Message(lang, "eval-summary", strconv.Itoa(r.Passed), strconv.Itoa(r.Failed)) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON prints the report as one JSON object.
func (r Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}
