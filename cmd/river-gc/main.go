//go:build linux

package main

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
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

// exit is os.Exit, named so the test binary can run main1 as a command.
var exit = os.Exit
