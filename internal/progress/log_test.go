package progress

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the Log's goroutine; each write
// is announced on wrote, so the test knows a tick's line is out.
type syncBuffer struct {
	mu    sync.Mutex
	b     bytes.Buffer
	wrote chan struct{}
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer func() { s.wrote <- struct{}{} }()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestLogWritesOneLinePerTick drives a Log with an injected ticker: one
// line per tick (never one per update), the latest state each time,
// nothing before the first state, nothing after Stop.
func TestLogWritesOneLinePerTick(t *testing.T) {
	out := syncBuffer{wrote: make(chan struct{}, 1)}
	tick := make(chan time.Time)
	l := NewLog(&out, tick)
	if l.Tick() { // nothing set yet: no line
		t.Fatal("a line before any progress was set")
	}
	for i := range 1000 {
		l.Set("scanning: " + strings.Repeat("x", i%3))
	}
	l.Set("scanning: 1000 files")
	tick <- time.Time{}
	<-out.wrote
	tick <- time.Time{} // the same state again: the run is alive
	<-out.wrote
	l.Set("deleting 5/10")
	tick <- time.Time{}
	<-out.wrote
	l.Stop()
	l.Set("deleting 10/10")
	l.Stop() // twice is fine
	want := "scanning: 1000 files\nscanning: 1000 files\ndeleting 5/10\n"
	if got := out.String(); got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// TestLogIntervalIsTenSeconds pins the cadence SPEC B5 asks for.
func TestLogIntervalIsTenSeconds(t *testing.T) {
	if LogInterval != 10*time.Second {
		t.Fatalf("LogInterval = %v", LogInterval)
	}
}
