// Package progress draws river gc's one-line progress on a terminal: the
// scan's file count and the deletion's done/total, at most ten updates a
// second, cleared at the end. The caller decides that the writer is a
// terminal; a pipe never gets a Line.
//
// The clock is read only to throttle; it never reaches the output.
package progress

import (
	"io"
	"time"
)

// Interval is the least time between two drawn updates (~10 a second).
const Interval = 100 * time.Millisecond

// Line is one progress line on a terminal. It is not safe for concurrent
// use.
type Line struct {
	w     io.Writer
	now   func() time.Time
	last  time.Time
	drawn bool
}

// New returns a Line on w throttled by the system clock.
func New(w io.Writer) *Line { return NewClock(w, time.Now) }

// NewClock returns a Line on w throttled by now (tests inject a clock).
func NewClock(w io.Writer, now func() time.Time) *Line { return &Line{w: w, now: now} }

// Update redraws the line with text unless the last update was drawn less
// than Interval ago; final updates (force) are always drawn. It reports
// whether it drew.
func (l *Line) Update(text string, force bool) bool {
	t := l.now()
	if l.drawn && !force && t.Sub(l.last) < Interval {
		return false
	}
	l.last, l.drawn = t, true
	io.WriteString(l.w, "\r\033[K"+text)
	return true
}

// Clear erases the line if anything was drawn.
func (l *Line) Clear() {
	if l.drawn {
		io.WriteString(l.w, "\r\033[K")
		l.drawn = false
	}
}
