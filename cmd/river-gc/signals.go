//go:build linux

package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// stopSignals end a --force run early but in order: SIGINT, SIGTERM,
// SIGHUP (a closed terminal or ssh session) and SIGQUIT each cancel it,
// so it finishes or undoes the files in hand (one per deletion worker),
// attempts no more deletions, writes its record and exits 1 (SPEC B2,
// B4).
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// forceSignals prepares a --force run for the ways it can be ended: the
// stop signals cancel the returned context; a second one ends the process
// at once with exit 1 (never 2, which says nothing was touched; the
// intent journal then tells the next run what was deleted). SIGPIPE is
// ignored, so a closed pipe on stdout or stderr makes writes fail with
// EPIPE instead of killing the run before its record is written. A
// wrapper's death (ParentEnv) cancels the context as a signal does.
func forceSignals(parent context.Context) context.Context {
	signal.Ignore(syscall.SIGPIPE)
	ctx, cancel := context.WithCancel(parent)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, stopSignals...)
	go func() {
		<-ch
		cancel()
		<-ch
		exit(1)
	}()
	return watchParent(ctx, cancel)
}
