package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestThrottle(t *testing.T) {
	var buf bytes.Buffer
	at := time.Unix(0, 0)
	l := NewClock(&buf, func() time.Time { return at })
	steps := []struct {
		after time.Duration
		force bool
		drawn bool
	}{
		{0, false, true},                      // the first update is drawn
		{50 * time.Millisecond, false, false}, // too soon
		{49 * time.Millisecond, false, false}, // 99ms after the last draw
		{1 * time.Millisecond, false, true},   // 100ms: drawn
		{10 * time.Millisecond, true, true},   // final: always drawn
		{10 * time.Millisecond, false, false}, // throttled from the forced draw
	}
	for i, s := range steps {
		at = at.Add(s.after)
		if got := l.Update("n="+string(rune('0'+i)), s.force); got != s.drawn {
			t.Errorf("step %d: drawn = %v, want %v", i, got, s.drawn)
		}
	}
	if got, want := buf.String(), "\r\033[Kn=0\r\033[Kn=3\r\033[Kn=4"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	l.Clear()
	if !strings.HasSuffix(buf.String(), "n=4\r\033[K") {
		t.Errorf("Clear did not erase the line: %q", buf.String())
	}
	buf.Reset()
	l.Clear()
	if buf.Len() != 0 {
		t.Errorf("second Clear wrote %q", buf.String())
	}
}

func TestClearWithoutDrawWritesNothing(t *testing.T) {
	var buf bytes.Buffer
	NewClock(&buf, time.Now).Clear()
	if buf.Len() != 0 {
		t.Errorf("wrote %q", buf.String())
	}
}
