package record

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

var ctx = context.Background()

// memJournals are journals held in memory, one unit per name; gone are
// the keys no longer holding their journaled object.
type memJournals struct {
	units   map[string][]byte
	runs    map[string]string
	gone    map[string]bool
	broken  string // a unit whose Read fails
	removed []string
}

func (m *memJournals) Valid(Intent) bool { return true }

func (m *memJournals) Append(context.Context, []byte) (Unit, error) {
	return Unit{}, errors.New("read-only")
}

func (m *memJournals) List(context.Context) ([]Unit, error) {
	var us []Unit
	for name := range m.units {
		us = append(us, Unit{Name: name, Run: m.runs[name], Journal: "j/", Tag: "t"})
	}
	slices.SortFunc(us, func(a, b Unit) int { return strings.Compare(a.Name, b.Name) })
	return us, nil
}

func (m *memJournals) Read(_ context.Context, u Unit) (io.ReadCloser, Unit, error) {
	if u.Name == m.broken {
		return nil, u, errors.New("connection reset")
	}
	return io.NopCloser(bytes.NewReader(m.units[u.Name])), u, nil
}

func (m *memJournals) Unchanged(_ context.Context, ins []Intent) ([]bool, error) {
	same := make([]bool, len(ins))
	for i, in := range ins {
		same[i] = !m.gone[in.Key]
	}
	return same, nil
}

func (m *memJournals) Aside(_ context.Context, u Unit) string { return "aside/" + u.Name }

func (m *memJournals) Remove(_ context.Context, u Unit) error {
	m.removed = append(m.removed, u.Name)
	return nil
}

func (m *memJournals) SetAside(_ context.Context, u Unit, aside string) error {
	m.removed = append(m.removed, u.Name+"->"+aside)
	return nil
}

// TestEveryJournalEverWrittenReadsUnchanged: the lines the disk's and
// the bucket's journals wrote before the record was one (the disk's
// "<op> <dev> <ino> <size> <mtime-ns> <path>", the bucket's objects with
// "lease" and quoted ETags, its "-done" object) parse to the same
// intents, and what the Writer writes now reads back exactly.
func TestEveryJournalEverWrittenReadsUnchanged(t *testing.T) {
	for _, c := range []struct {
		name, body string
		want       []Intent
		runs, done int
		lease      int64
	}{
		{"disk", Header + "\nrun\ndelete 2049 77 5 1700000000000000001 \".river/tmp/a b\"\nrewrite 1 2 -3 4 \".river/memory/index.json\"\ntemp 1 9 3 4 \".river/memory/.river-gc-rewrite.x\"\ndone\n",
			[]Intent{{Delete, ".river/tmp/a b", "2049 77 5 1700000000000000001"}, {Rewrite, ".river/memory/index.json", "1 2 -3 4"}, {Temp, ".river/memory/.river-gc-rewrite.x", "1 9 3 4"}}, 1, 1, 0},
		{"bucket batch", Header + "\nlease 1700000900\ndelete \"\\\"9b2cf535f27731c974343645a3985328\\\"\" \".river/tmp/x\\n.tmp\"\nrewrite \"\\\"abc\\\"\" \".river/memory/index.json\"\n",
			[]Intent{{Delete, ".river/tmp/x\n.tmp", `"9b2cf535f27731c974343645a3985328"`}, {Rewrite, ".river/memory/index.json", `"abc"`}}, 0, 0, 1700000900},
		{"bucket done", Header + "\ndone\n", nil, 0, 1, 0},
	} {
		p, err := Parse(bufio.NewReader(strings.NewReader(c.body)), func(Intent) bool { return true })
		if err != nil || p.Bad != 0 || !slices.Equal(p.Intents, c.want) || p.Runs != c.runs || p.Done != c.done || p.Lease != c.lease {
			t.Errorf("%s: %+v, %v", c.name, p, err)
		}
		var again []byte
		for _, in := range c.want {
			again = AppendLine(again, in)
		}
		if !strings.Contains(c.body, string(again)) {
			t.Errorf("%s: the writer writes %q, not the old lines", c.name, again)
		}
	}
}

// TestLockRuleNamesOnlyRunsProvablyOver: of five runs' journals, the one
// that wrote done, the one whose lease ended, the one taken over and the
// one without a lease (a flock's) are named; the one under a live lease
// is left alone, not named and never discarded. A dry-run beside a live
// holder names nothing.
func TestLockRuleNamesOnlyRunsProvablyOver(t *testing.T) {
	now := time.Unix(2_000_000_000, 0)
	live, ended := "lease 2000000600\n", "lease 1999999999\n"
	m := &memJournals{
		units: map[string][]byte{
			"done-1":     []byte(Header + "\nrun\n" + live + "delete \"t\" \"a\"\n"),
			"done-2":     []byte(Header + "\ndone\n"),
			"ended-1":    []byte(Header + "\nrun\n" + ended + "delete \"t\" \"b\"\n"),
			"taken-1":    []byte(Header + "\nrun\n" + live + "delete \"t\" \"c\"\n"),
			"flock-1":    []byte(Header + "\nrun\ndelete 1 2 3 4 \"d\"\n"),
			"live-1":     []byte(Header + "\nrun\n" + live + "delete \"t\" \"e\"\n"),
			"garbled-1":  []byte("not a journal\n" + "delete \"t\" \"f\"\n"),
			"broken-one": []byte(Header + "\n"),
		},
		runs: map[string]string{"done-1": "done", "done-2": "done", "ended-1": "ended", "taken-1": "taken",
			"flock-1": "flock", "live-1": "live", "garbled-1": "garbled", "broken-one": "broken"},
		gone:   map[string]bool{"a": true, "b": true, "c": true, "d": true, "e": true, "f": true},
		broken: "broken-one",
	}
	rec, err := Recover(ctx, m, takenOver("taken"), nil, now)
	if err == nil || !strings.Contains(err.Error(), "connection reset") {
		t.Errorf("a journal that cannot be read: %v, want its failure", err)
	}
	if rec == nil || !slices.Equal(rec.Removed, []string{"a", "b", "c", "d", "f"}) || !slices.Equal(rec.Live, []string{"live"}) ||
		rec.Finished || len(rec.Unreadable) != 1 || rec.Unreadable[0].Lines != 1 || rec.Unreadable[0].Aside != "aside/garbled-1" {
		t.Fatalf("recovered %+v", rec)
	}
	if err := Discard(ctx, m, rec, nil); err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(m.removed, func(s string) bool { return strings.HasPrefix(s, "live") }) ||
		!slices.Contains(m.removed, "garbled-1->aside/garbled-1") || len(m.removed) != 6 {
		t.Errorf("discarded %q; want the five readable journals of runs over removed, the garbled set aside, the live kept", m.removed)
	}
	if rec, _ := Recover(ctx, m, nil, liveHolder{}, now); rec != nil {
		t.Errorf("a dry-run beside a live holder named %+v", rec)
	}
}

// takenOver is a lock taken over from a run whose lease had run out.
type takenOver string

func (takenOver) Prove(context.Context, time.Time) error { return nil }
func (takenOver) Lease() int64                           { return 0 }
func (l takenOver) Ended() string                        { return string(l) }
func (takenOver) Release(context.Context) error          { return nil }

// liveHolder is the probe of a lock a live run holds.
type liveHolder struct{}

func (liveHolder) Probe(context.Context, time.Time) (bool, string, error) { return true, "", nil }

// TestWriterProvesTheLockBeforeEveryBatch: a lock lost stops the writer
// before anything of the batch is written, and every later batch fails
// the same way.
func TestWriterProvesTheLockBeforeEveryBatch(t *testing.T) {
	a, l, w := lostAfterOneBatch(t)
	for range 2 {
		if err := w.Intend(ctx, []Intent{{Delete, "b", `"t"`}}); !errors.Is(err, ErrLockLost) {
			t.Errorf("a batch after the lock was lost: %v", err)
		}
	}
	if len(a.bodies) != 1 || !strings.HasPrefix(a.bodies[0], "run\nlease 42\ndelete") || l.proofs != 2 {
		t.Errorf("written %q after %d proofs; want one batch naming its lease", a.bodies, l.proofs)
	}
}

// lostAfterOneBatch is a writer that wrote one batch under a lock with a
// lease, which is then lost.
func lostAfterOneBatch(t *testing.T) (*appends, *losable, *Writer) {
	t.Helper()
	a := &appends{}
	l := &losable{}
	w := NewWriter(a, l)
	if err := w.Intend(ctx, []Intent{{Delete, "a", `"t"`}}); err != nil {
		t.Fatal(err)
	}
	l.lost = true
	return a, l, w
}

// TestRunThatLostItsLockEndsItsJournal: a run that found its lock lost
// acts on nothing more but still writes "done", which is what proves it
// over to the next run while its lease runs (SPEC B8 5); a run whose
// journal write failed writes nothing more.
func TestRunThatLostItsLockEndsItsJournal(t *testing.T) {
	a, _, w := lostAfterOneBatch(t)
	if err := w.Intend(ctx, []Intent{{Delete, "b", `"t"`}}); !errors.Is(err, ErrLockLost) {
		t.Fatalf("a batch after the lock was lost: %v", err)
	}
	if err := w.Done(ctx); !errors.Is(err, ErrLockLost) {
		t.Errorf("Done after the lock was lost: %v, want the loss still reported", err)
	}
	if len(a.bodies) != 2 || a.bodies[1] != "done\n" {
		t.Errorf("written %q; want the batch, then done", a.bodies)
	}

	f := &failing{}
	w = NewWriter(f, nil)
	if err := w.Intend(ctx, []Intent{{Delete, "a", `"t"`}}); err == nil {
		t.Fatal("a failed append reported no error")
	}
	if err := w.Done(ctx); err == nil || f.calls != 1 {
		t.Errorf("Done after a failed write: %v after %d appends; want the failure and no append", err, f.calls)
	}
}

// failing are journals whose every append fails.
type failing struct {
	memJournals
	calls int
}

func (f *failing) Append(context.Context, []byte) (Unit, error) {
	f.calls++
	return Unit{}, errors.New("disk full")
}

// appends are journals that keep what is appended.
type appends struct {
	memJournals
	bodies []string
}

func (a *appends) Append(_ context.Context, b []byte) (Unit, error) {
	a.bodies = append(a.bodies, string(b))
	return Unit{Name: "j"}, nil
}

// losable is a lock with a lease that can be lost.
type losable struct {
	lost   bool
	proofs int
}

func (l *losable) Prove(context.Context, time.Time) error {
	l.proofs++
	if l.lost {
		return ErrLockLost
	}
	return nil
}
func (*losable) Lease() int64                  { return 42 }
func (*losable) Ended() string                 { return "" }
func (*losable) Release(context.Context) error { return nil }

// TestAnyTagReadsBack: whatever the tag — the disk's decimal fields, a
// bucket's quoted ETag, or anything a backend might make — its line
// reads back as the very intent written.
func TestAnyTagReadsBack(t *testing.T) {
	for _, tag := range []string{"", "1", "-1", "1 2 -3 4", "18446744073709551615 1 0 -9223372036854775808",
		"1  2", "1 ", " 1", "-", "1-2", "--1", `"etag"`, `W/"x"`, "a b", "1 \"2\"", "\n", "\xff"} {
		in := Intent{Op: Delete, Key: "k \"q\"", Tag: tag}
		line := AppendLine([]byte(Header+"\n"), in)
		p, err := Parse(bufio.NewReader(bytes.NewReader(line)), func(Intent) bool { return true })
		if err != nil || p.Bad != 0 || len(p.Intents) != 1 || p.Intents[0] != in {
			t.Errorf("tag %q: wrote %q, read %+v, %v", tag, line, p, err)
		}
	}
}
