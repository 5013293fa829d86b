//go:build linux

// Package stop ends a --force run early but in order: the stop signals
// and the death of the wrapper that started river-gc cancel the run's
// context, so it finishes or undoes the files in hand, attempts no more
// deletions and writes its record; it never exits with 2, which says
// nothing was touched.
package stop

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// stopSignals end a --force run early but in order: SIGINT, SIGTERM,
// SIGHUP (a closed terminal or ssh session) and SIGQUIT each cancel it,
// so it finishes or undoes the files in hand (one per deletion worker),
// attempts no more deletions, writes its record and exits 1 (SPEC B2,
// B4).
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// signalMerge is how long after the first stop signal further ones are
// taken for copies of it (decision 242): a terminal's Ctrl-C or Ctrl-\
// reaches npm, the shim and River Review's CLI, and each wrapper passes
// on what it got, so one keystroke can arrive two or three times, as
// the same or another signal, hundreds of milliseconds apart on a loaded
// machine. Only a stop signal later than this ends the run at once.
const signalMerge = 3 * time.Second

// Force prepares a --force run for the ways it can be ended: the stop
// signals cancel the returned context; one more after signalMerge ends
// the process at once with exitNow(1) (never 2, which says nothing was
// touched; the intent journal then tells the next run what was deleted),
// while those within it change nothing, so the record is written. SIGPIPE
// is ignored, so a closed pipe on stdout or stderr makes writes fail with
// EPIPE instead of killing the run before its record is written. A
// wrapper's death (ParentEnv) cancels the context as a signal does.
func Force(parent context.Context, exitNow func(int)) context.Context {
	signal.Ignore(syscall.SIGPIPE)
	ctx, cancel := context.WithCancel(parent)
	ch := make(chan os.Signal, 4)
	signal.Notify(ch, stopSignals...)
	go stopOnSignals(ch, cancel, time.Now, exitNow)
	return watchParent(ctx, cancel)
}

// stopOnSignals cancels the run at the first signal of ch and calls
// exitNow(1) at the first that comes signalMerge or more after it (by
// the clock now); the ones in between are copies of the first.
func stopOnSignals(ch <-chan os.Signal, cancel context.CancelFunc, now func() time.Time, exitNow func(int)) {
	<-ch
	cancel()
	first := now()
	for range ch {
		if now().Sub(first) >= signalMerge {
			exitNow(1)
			return
		}
	}
}
