package record

import (
	"bufio"
	"context"
	"errors"
	"io"
	"maps"
	"slices"
	"strings"
	"time"
)

// Unit is one journal as its backend keeps it: a disk file, which every
// run on the root appends to, or a bucket object, one append of one run.
type Unit struct {
	// Name is its root-relative name (a key on a bucket).
	Name string
	// Run names the run (or, for a disk file, the runs) it belongs to:
	// the units of one run are live or over together.
	Run string
	// Journal is where a user is told the journal is (the disk file, the
	// bucket's journal prefix).
	Journal string
	// Tag is its identity as read: it is removed or set aside only while
	// it still carries it.
	Tag string
	// Odd counts what its backend found wrong beyond its lines (a name
	// not of the journal's form, a body beyond the bound read).
	Odd int
	// Cut: the unit was read only up to its backend's bound; it is never
	// moved (its copy would be cut short), so it stays where it is.
	Cut bool
}

// Journals are a backend's primitives for the record (SPEC I2): append
// durably, list, read, the current identity of journaled names, and
// remove or set aside. Everything else — the format, the bounds, the
// grouping by run, the lock rule, what is named — is this package's,
// once for every backend.
type Journals interface {
	// Valid reports whether in is an intent this backend writes (a disk
	// intent has a canonical path and an identity tag): an intent line
	// it is not is read as a line not in the journal's form.
	Valid(in Intent) bool
	// Append makes body durable, as one more part of this run's journal,
	// before it returns (disk: appended to the journal file and synced;
	// bucket: a new object created only if absent), and returns the unit
	// written. A new unit starts with Header.
	Append(ctx context.Context, body []byte) (Unit, error)
	// List returns the journals present.
	List(ctx context.Context) ([]Unit, error)
	// Read opens one journal and returns it as read (its Tag, Odd, Cut).
	Read(ctx context.Context, u Unit) (io.ReadCloser, Unit, error)
	// Unchanged reports, for each intent, whether its key still holds
	// exactly the object journaled: at its name, or (disk) where a
	// killed run may hold it (a private name, a directory held whole).
	Unchanged(ctx context.Context, ins []Intent) ([]bool, error)
	// Aside is a free name to set the unreadable journal u aside under,
	// outside every journal ("" when none is free).
	Aside(ctx context.Context, u Unit) string
	// Remove deletes u if it is still the unit read; one already gone
	// is no error.
	Remove(ctx context.Context, u Unit) error
	// SetAside moves u to aside, never over another object, if it is
	// still the unit read.
	SetAside(ctx context.Context, u Unit, aside string) error
}

// Recovered is what the journals of runs that left no record, and are
// provably over, say those runs did.
type Recovered struct {
	// Units are the journals read: Discard removes them (or sets them
	// aside) once this run's record is written.
	Units []Unit
	// Journals are where they are (Unit.Journal), sorted.
	Journals []string
	// Runs are the runs they belong to, sorted.
	Runs []string
	// Removed and Rewritten are the keys journaled for deletion and for
	// rewriting that no longer hold the object journaled (gone, or
	// another object now): sorted, without repeats.
	Removed, Rewritten []string
	// Temps are the copies killed rewrites left under their temporary
	// names: journaled (op temp) and still exactly the journaled object,
	// sorted by key.
	Temps []Intent
	// Finished: every run wrote "done" and every line was read; only
	// its record is unconfirmed.
	Finished bool
	// Live are the runs whose journals were left alone (sorted): not
	// named, not returned, never removed (SPEC B8 5).
	Live []string
	// Unreadable are the journals holding lines not in the journal's
	// form (a third party's, a garbled one): read as far as they go, then
	// set aside rather than obeyed, so that no later run is stopped by
	// them (decisions 133, 287).
	Unreadable []Unreadable
}

// Unreadable is one journal with Lines lines not in the journal's form
// and the name Discard moves it to ("" when none is free, or when it was
// read only up to its backend's bound: it stays where it is).
type Unreadable struct {
	Unit  Unit
	Lines int
	Aside string
}

// run is what the journals of one run say.
type run struct {
	units      []Unit
	intents    []Intent
	runs, done int
	lease      int64
	unreadable []Unreadable
}

// over is the lock rule (package doc): a run is provably over when it
// wrote "done", when its lease has ended at now, or when it is named in
// ended (a lease taken over); a run without a lease (a disk's flock,
// which the kernel releases when the process ends) is over once the
// caller holds the lock or found it free.
func (r *run) over(name string, now time.Time, ended []string) bool {
	return r.finished() || r.lease <= now.Unix() || slices.Contains(ended, name)
}

// finished: every run that began appending wrote "done".
func (r *run) finished() bool { return r.done > 0 && r.done >= r.runs }

// Recover reads every journal of j and names what the runs that are
// provably over did: each intent checked against the store as it is now
// (Journals.Unchanged). lock is the lock this run holds (a --force run);
// without one (a dry-run), probe tells whether a live run holds the
// root's lock, and then nothing is named: that run's journals are no
// leftovers. It returns nil when no journal of a run over was found; a
// journal that cannot be read is in the error, and the others are read
// all the same.
func Recover(ctx context.Context, j Journals, lock Lock, probe Prober, now time.Time) (*Recovered, error) {
	units, err := j.List(ctx)
	if err != nil {
		return nil, err
	}
	runs := map[string]*run{}
	var errs []error
	for _, u := range units {
		r := runs[u.Run]
		if r == nil {
			r = &run{}
			runs[u.Run] = r
		}
		if err := r.read(ctx, j, u); err != nil {
			errs = append(errs, err)
		}
	}
	var ended []string
	switch {
	case lock != nil:
		ended = append(ended, lock.Ended())
	case probe != nil && len(runs) > 0:
		// Probed after reading: a run that started since holds the lock
		// now and its journal is no leftover. (One that started and ended
		// in between is named: an over-report, never an under-report.)
		live, end, perr := probe.Probe(ctx, now)
		if live && perr == nil {
			return nil, errors.Join(errs...)
		}
		ended = append(ended, end)
	}
	rec := &Recovered{Finished: true}
	var intents []Intent
	for _, name := range slices.Sorted(maps.Keys(runs)) {
		r := runs[name]
		if len(r.units) == 0 {
			continue
		}
		if !r.over(name, now, ended) {
			rec.Live = append(rec.Live, name)
			continue
		}
		rec.Runs = append(rec.Runs, name)
		rec.Units = append(rec.Units, r.units...)
		rec.Unreadable = append(rec.Unreadable, r.unreadable...)
		rec.Finished = rec.Finished && r.finished() && len(r.unreadable) == 0
		intents = append(intents, r.intents...)
	}
	if len(rec.Runs) == 0 {
		return nil, errors.Join(errs...)
	}
	for _, u := range rec.Units {
		rec.Journals = append(rec.Journals, u.Journal)
	}
	slices.Sort(rec.Journals)
	rec.Journals = slices.Compact(rec.Journals)
	for i, u := range rec.Unreadable {
		if !u.Unit.Cut {
			rec.Unreadable[i].Aside = j.Aside(ctx, u.Unit)
		}
	}
	if err := rec.check(ctx, j, intents); err != nil {
		errs = append(errs, err)
	}
	return rec, errors.Join(errs...)
}

// read reads one journal of the run into r.
func (r *run) read(ctx context.Context, j Journals, u Unit) error {
	rc, got, err := j.Read(ctx, u)
	if err != nil {
		return err
	}
	defer rc.Close()
	p, err := Parse(bufio.NewReaderSize(rc, 64<<10), j.Valid)
	if err != nil {
		return err
	}
	r.units = append(r.units, got)
	if bad := p.Bad + got.Odd; bad > 0 {
		r.unreadable = append(r.unreadable, Unreadable{Unit: got, Lines: bad})
	}
	r.runs += p.Runs
	r.done += p.Done
	r.lease = max(r.lease, p.Lease)
	r.intents = append(r.intents, p.Intents...)
	return nil
}

// check names the intents whose keys no longer hold the journaled
// object, and the temporary copies still exactly as journaled.
func (rec *Recovered) check(ctx context.Context, j Journals, intents []Intent) error {
	same, err := j.Unchanged(ctx, intents)
	if err != nil {
		return err
	}
	for i, in := range intents {
		switch {
		case in.Op == Temp:
			if same[i] {
				rec.Temps = append(rec.Temps, in)
			}
		case same[i]: // still the object journaled: not acted on
		case in.Op == Rewrite:
			rec.Rewritten = append(rec.Rewritten, in.Key)
		default:
			rec.Removed = append(rec.Removed, in.Key)
		}
	}
	slices.Sort(rec.Removed)
	slices.Sort(rec.Rewritten)
	rec.Removed, rec.Rewritten = slices.Compact(rec.Removed), slices.Compact(rec.Rewritten)
	slices.SortFunc(rec.Temps, func(a, b Intent) int { return strings.Compare(a.Key, b.Key) })
	rec.Temps = slices.CompactFunc(rec.Temps, func(a, b Intent) bool { return a.Key == b.Key })
	return nil
}

// Discard removes the journals once the run's record is written: those
// rec read (rec may be nil) and those the run wrote (w may be nil), each
// only while it is still the unit read or written. An unreadable one is
// set aside instead, this run's lines appended to it included (the
// record names what could be read; the journal keeps the rest); one read
// only up to its bound stays where it is.
func Discard(ctx context.Context, j Journals, rec *Recovered, w *Writer) error {
	var units []Unit
	aside := map[[2]string]*Unreadable{} // by name and tag
	if w != nil {
		units = append(units, w.Units()...)
	}
	if rec != nil {
		units = append(units, rec.Units...)
		for i, un := range rec.Unreadable {
			aside[[2]string{un.Unit.Name, un.Unit.Tag}] = &rec.Unreadable[i]
		}
	}
	var errs []error
	var remove []Unit
	seen := map[[2]string]bool{}
	for _, u := range units {
		id := [2]string{u.Name, u.Tag}
		if seen[id] {
			continue
		}
		seen[id] = true
		un := aside[id]
		switch {
		case un == nil:
			remove = append(remove, u)
		case !un.Unit.Cut:
			errs = append(errs, j.SetAside(ctx, u, un.Aside))
		}
	}
	if br, ok := j.(BatchRemover); ok && len(remove) > 1 {
		return errors.Join(append(errs, br.RemoveAll(ctx, remove))...)
	}
	for _, u := range remove {
		errs = append(errs, j.Remove(ctx, u))
	}
	return errors.Join(errs...)
}

// BatchRemover is what journals may also do (an optional feature,
// asserted by Discard): remove several units at once, each only if it is
// still the unit read, one request for a bucket's objects where Remove
// would send one each.
type BatchRemover interface {
	RemoveAll(ctx context.Context, us []Unit) error
}
