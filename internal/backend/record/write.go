package record

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// maxAppend bounds one append (a bucket object; a disk write synced at
// once): a batch is cut before it would pass it, however long and odd its
// keys (SPEC B8 7). A disk batch of 2,048 intents of 250-byte paths is a
// seventh of it.
const maxAppend = 4 << 20

// ErrNotJournalable means an intent the reader could not read back (an
// unknown op, a key its backend never writes, a line beyond MaxLine): its
// batch is written not at all, so nothing of it is acted on.
var ErrNotJournalable = errors.New("not journalable")

// NotJournalableError names the intent refused (ErrNotJournalable).
type NotJournalableError struct{ Key string }

func (e *NotJournalableError) Error() string {
	return fmt.Sprintf("journal %q: %v", e.Key, ErrNotJournalable)
}

// Unwrap returns ErrNotJournalable.
func (e *NotJournalableError) Unwrap() error { return ErrNotJournalable }

// Writer is a run's intent journal: before each batch is acted on it
// proves the run's lock and makes the batch durable through its
// backend's Journals. A run killed at any point leaves journals that name
// all it may have acted on. Its methods are not safe for concurrent use.
type Writer struct {
	j      Journals
	lock   Lock // nil for a run without one (tests)
	begun  bool // "run" written
	units  []Unit
	failed error
}

// NewWriter returns the journal of a run on j, its batches guarded by
// lock (nil: none). Nothing is written before Intend.
func NewWriter(j Journals, lock Lock) *Writer { return &Writer{j: j, lock: lock} }

// Intend writes the batch durably before any of it is acted on: after
// proving the lock (Lock.Prove: ErrLockLost means nothing of the batch
// is written, nothing may be acted on), in appends of at most maxAppend
// bytes, each naming the lease's end when the lock has one. A batch with
// an intent the reader could not read back is written not at all
// (*NotJournalableError). Any failure fails every later Intend with the
// same error: nothing is acted on after a write that may have left part
// of a batch, or once the lock is lost.
func (w *Writer) Intend(ctx context.Context, batch []Intent) error {
	if w.failed != nil {
		return w.failed
	}
	var lines []byte
	for _, in := range batch {
		n := len(lines)
		lines = AppendLine(lines, in)
		if !known(in.Op) || !w.j.Valid(in) || len(lines)-n-1 > MaxLine {
			w.failed = &NotJournalableError{Key: in.Key}
			return w.failed
		}
	}
	if len(lines) == 0 {
		return nil
	}
	head := ""
	if w.lock != nil {
		if err := w.lock.Prove(ctx, time.Now()); err != nil {
			w.failed = err
			return err
		}
		if end := w.lock.Lease(); end > 0 {
			head = "lease " + strconv.FormatInt(end, 10) + "\n"
		}
	}
	for len(lines) > 0 {
		n := cut(lines, maxAppend-len(head)-len("run\n"))
		body := lines[:n]
		if head != "" {
			body = append([]byte(head), body...)
		}
		lines = lines[n:]
		if err := w.append(ctx, body); err != nil {
			return err
		}
	}
	return nil
}

// cut is how many bytes of whole lines of b make at most limit bytes
// (at least one line).
func cut(b []byte, limit int) int {
	n := 0
	for i, c := range b {
		if c != '\n' {
			continue
		}
		if n > 0 && i+1 > limit {
			break
		}
		n = i + 1
	}
	return n
}

// Done records that the run's deletions and rewrites ended (only its
// record may still be missing). A run that journaled nothing writes
// nothing. A run that lost its lock writes it all the same: it acts on
// nothing more, and "done" is what proves it over to the next run, whose
// lease may not have ended (SPEC B8 5: that run names what this one
// did). After a failed write it writes nothing.
func (w *Writer) Done(ctx context.Context) error {
	if !w.begun || (w.failed != nil && !errors.Is(w.failed, ErrLockLost)) {
		return w.failed
	}
	if err := w.append(ctx, []byte("done\n")); err != nil {
		return err
	}
	return w.failed
}

// append writes body, after the run's "run" line when it is its first.
func (w *Writer) append(ctx context.Context, body []byte) error {
	if !w.begun {
		body = append([]byte("run\n"), body...)
	}
	u, err := w.j.Append(ctx, body)
	if err != nil {
		w.failed = err
		return err
	}
	w.begun = true
	if len(w.units) == 0 || w.units[len(w.units)-1].Name != u.Name || w.units[len(w.units)-1].Tag != u.Tag {
		w.units = append(w.units, u)
	}
	return nil
}

// Units are the journals this run wrote (one disk file, or a bucket's
// objects).
func (w *Writer) Units() []Unit { return w.units }
