//go:build linux

package main

import (
	"context"
	"os"
)

func main() { exit(main1()) }

// main1 is main with an exit code, so testscript can run it in-process.
func main1() int {
	if len(os.Args) > 1 && os.Args[1] == "completion" {
		return exitCode(completion(os.Stdout, os.Args[2:]), os.Stderr)
	}
	return exitCode(run(context.Background(), os.Stdout, os.Stderr, os.Args[1:]), os.Stderr)
}

// exit is os.Exit, named so the test binary can run main1 as a command.
var exit = os.Exit
