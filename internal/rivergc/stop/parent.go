//go:build linux

package stop

import (
	"context"
	"os"
	"strconv"
	"syscall"
	"time"
)

// ParentEnv names the environment variable through which a wrapper (River
// Review's `river gc`, the npm shim's `river-gc`) hands river-gc its own
// pid. When it is set, a --force run stops as on SIGTERM once its parent
// is no longer that process: the wrapper was killed outright (SIGKILL of
// it or of its process group), so nobody is left to forward a signal or
// read the exit code, and river-gc attempts no further deletion. Without
// it, river-gc does not watch its parent: `nohup river-gc --force &` and
// `(river-gc --force &)` keep running whatever their shell does
// (docs/decisions/releases.md, decision 142).
const ParentEnv = "RIVER_GC_PARENT_PID"

// parentPoll is how often a goroutine asks getppid(2) for callers that
// wait on Done; every deletion also asks right before it starts (Err).
const parentPoll = 50 * time.Millisecond

// parentContext is a --force run's context that is also done once the
// parent river-gc was started by has gone: its Err asks getppid(2) each
// time, and the sweep calls Err before every deletion and every rewrite,
// so no deletion starts after the parent's death is visible.
type parentContext struct {
	context.Context
	want   int
	cancel context.CancelFunc
}

// Err cancels the run when the parent has gone, then reports the run's
// state.
func (c parentContext) Err() error {
	if syscall.Getppid() != c.want {
		c.cancel()
	}
	return c.Context.Err()
}

// watchParent returns ctx unchanged without ParentEnv (or with a value
// that is not a pid); otherwise a context that cancel ends when the parent
// is not the pid it names, checked at once (a wrapper killed before
// river-gc started is gone already) and then on every Err and every
// parentPoll.
func watchParent(ctx context.Context, cancel context.CancelFunc) context.Context {
	want, err := strconv.Atoi(os.Getenv(ParentEnv))
	if err != nil || want <= 0 {
		return ctx
	}
	pc := parentContext{Context: ctx, want: want, cancel: cancel}
	if pc.Err() != nil {
		return pc
	}
	go func() {
		tick := time.NewTicker(parentPoll)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if pc.Err() != nil {
					return
				}
			}
		}
	}()
	return pc
}
