package main

import (
	"context"
	"os"

	"github.com/plangate-gc/plangate-gc/render"
)

func main() { os.Exit(main1()) }

// main1 is main with an exit code, so testscript can run the command
// in-process. Its own messages (usage errors) speak the locale's
// language; the review lines keep --lang's (SPEC B7).
func main1() int {
	return exitCode(run(context.Background(), os.Stdin, os.Stdout, os.Stderr, os.Args[1:]), os.Stderr, render.LangFromEnv(os.Getenv))
}

// exit is os.Exit, named so the test binary can run main1 as a command.
var exit = os.Exit
