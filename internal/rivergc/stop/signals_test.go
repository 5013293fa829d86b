//go:build linux

package stop

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// TestStopSignalsMergeCopiesOfTheFirst (decision 242): the first stop
// signal cancels the run; copies that wrappers pass on within
// signalMerge, of the same signal or another, change nothing (the run
// goes on to write its record); one at signalMerge or later exits 1 at
// once.
func TestStopSignalsMergeCopiesOfTheFirst(t *testing.T) {
	start := time.Unix(1_000_000, 0)
	for _, tc := range []struct {
		name  string
		after []time.Duration // when each further signal arrives, after the first
		exit  bool
	}{
		{"one signal", nil, false},
		{"copies within the window", []time.Duration{0, 200 * time.Millisecond, signalMerge - time.Nanosecond}, false},
		{"a late second signal", []time.Duration{signalMerge}, true},
		{"copies, then a late one", []time.Duration{time.Millisecond, 2 * signalMerge}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The clock answers each call with the arrival time of the
			// signal just received: stopOnSignals reads it once per signal.
			ch, arrivals := make(chan os.Signal), make(chan time.Time, len(tc.after)+1)
			cancelled, exited := false, -1
			done := make(chan struct{})
			go func() {
				defer close(done)
				stopOnSignals(ch, func() { cancelled = true }, func() time.Time { return <-arrivals }, func(code int) { exited = code })
			}()
			arrivals <- start
			ch <- syscall.SIGQUIT
			for i, d := range tc.after {
				arrivals <- start.Add(d)
				ch <- []os.Signal{syscall.SIGQUIT, syscall.SIGINT, syscall.SIGTERM}[i%3]
			}
			close(ch)
			<-done
			if !cancelled {
				t.Error("the first signal did not cancel the run")
			}
			if want := map[bool]int{false: -1, true: 1}[tc.exit]; exited != want {
				t.Errorf("exit code %d, want %d (-1: no exit)", exited, want)
			}
		})
	}
}
