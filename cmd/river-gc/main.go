package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() { exit(main1()) }

// main1 is main with an exit code, so testscript can run it in-process.
// SIGINT and SIGTERM cancel the run's context: a --force run finishes or
// undoes the file in hand, attempts no more deletions and still writes its
// record (SPEC B2). A second signal ends the process at once.
func main1() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop()
	}()
	return exitCode(run(ctx, os.Stdout, os.Stderr, os.Args[1:]), os.Stderr)
}

// exit is os.Exit, named so the test binary can run main1 as a command.
var exit = os.Exit
