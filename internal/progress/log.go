package progress

import (
	"io"
	"sync"
	"time"
)

// LogInterval is the time between two lines of a Log (SPEC B5: a CI log
// is never silent for long, and never flooded).
const LogInterval = 10 * time.Second

// Log writes progress off a terminal: a whole line, at most once a tick,
// saying how far the run has come, so a log is neither silent for minutes
// nor a line per file. Set may be called from any goroutine.
type Log struct {
	mu   sync.Mutex
	w    io.Writer
	text func() string
	stop chan struct{}
	done chan struct{}
}

// NewLog returns a Log on w that writes on each value of tick (a
// time.Ticker's channel; tests send their own) until Stop.
func NewLog(w io.Writer, tick <-chan time.Time) *Log {
	l := &Log{w: w, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(l.done)
		for {
			select {
			case <-tick:
				l.Tick()
			case <-l.stop:
				return
			}
		}
	}()
	return l
}

// Set records how far the run has come; the next tick writes it.
func (l *Log) Set(text string) { l.Watch(func() string { return text }) }

// Watch makes each tick write what f returns then ("" writes nothing):
// for counters that move between ticks. f must be safe to call from the
// Log's goroutine.
func (l *Log) Watch(f func() string) {
	l.mu.Lock()
	l.text = f
	l.mu.Unlock()
}

// Tick writes the recorded progress as one line, unless nothing was
// recorded yet. It reports whether it wrote. The same text is written
// again on later ticks: a line every interval shows the run is alive.
func (l *Log) Tick() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.text == nil || l.w == nil {
		return false
	}
	text := l.text()
	if text == "" {
		return false
	}
	io.WriteString(l.w, text+"\n")
	return true
}

// Stop ends the ticking and waits until no line is being written: what
// comes after (the summary) is never interleaved with progress.
func (l *Log) Stop() {
	select {
	case <-l.stop:
	default:
		close(l.stop)
	}
	<-l.done
}
