//go:build linux

package main

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"github.com/plangate-gc/plangate-gc/render"
)

func main() { exit(main1()) }

// main1 is main with an exit code, so testscript can run it in-process.
// A panic on this goroutine exits 1, not Go's 2: exit 2 says nothing was
// touched, and a --force run may have deleted files by then (its intent
// journal tells the next run which).
func main1() (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "river gc: internal error: %v\n%s", r, debug.Stack())
			code = 1
		}
	}()
	if len(os.Args) > 1 && os.Args[1] == "completion" {
		return exitCode(completion(os.Stdout, os.Args[2:]), os.Stderr, langArg(os.Args[2:]))
	}
	return exitCode(run(context.Background(), os.Stdout, os.Stderr, os.Args[1:]), os.Stderr, langArg(os.Args[1:]))
}

// langArg is the --lang given in args, read before anything else is
// parsed, so that even an error in the flags is worded in it (SPEC B5);
// English when absent or not one of the languages.
func langArg(args []string) render.Lang {
	lang := render.English
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

// exit is os.Exit, named so the test binary can run main1 as a command.
var exit = os.Exit
