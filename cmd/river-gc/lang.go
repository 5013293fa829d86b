//go:build linux

package main

import (
	"os"
	"strings"

	"github.com/plangate-gc/plangate-gc/render"
)

// langArg is the --lang given in args, read before anything else is
// parsed, so that even an error in the flags is worded in it (SPEC B5);
// the locale's language (render.LangFromEnv) when absent or not one of the
// languages.
func langArg(args []string) render.Lang {
	lang := render.LangFromEnv(os.Getenv)
	for i, a := range args {
		if a == "--" {
			break
		}
		v, ok := strings.CutPrefix(a, "--lang=")
		if !ok && a == "--lang" && i+1 < len(args) {
			v, ok = args[i+1], true
		}
		if ok && (v == string(render.Japanese) || v == string(render.English)) {
			lang = render.Lang(v)
		}
	}
	return lang
}
