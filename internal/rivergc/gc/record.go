//go:build linux

package gc

import (
	"context"
	"errors"
	"path"
	"slices"
	"strings"

	"github.com/plangate-gc/plangate-gc/internal/backend/local"
	"github.com/plangate-gc/plangate-gc/internal/backend/local/journal"
	"github.com/plangate-gc/plangate-gc/internal/backend/local/sweep"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
)

// journalBatch is how many intents are made durable with one fdatasync
// before any of their files is deleted (a variable so that tests can run
// many batches over few files).
var journalBatch = 2048

// Interrupted is what earlier --force runs that left no record did, read
// from their intent journals (SPEC B4): every journaled file that is no
// longer the file that was journaled.
type Interrupted struct {
	// Journals are the journals read (journal.Path, journal.AltPath).
	Journals []string
	// Removed and Rewritten are sorted and without repeats.
	Removed, Rewritten []string
	// Temps are the copies killed rewrites left under their temporary
	// names (journaled with their identity, still that file): a --force
	// run lists those it removed, a dry-run those it would remove.
	Temps []string
	// TempsRemoved: Temps are what this --force run removed.
	TempsRemoved bool
	// Finished: every run in the journals ended its deletions; only its
	// record is unconfirmed (it was killed while writing it, or writing
	// it failed).
	Finished bool
}

// recoverJournals reads the journals below the root. In a dry-run, a
// journal whose run is alive (the lock is held by another process) is
// not an interrupted run's and is not reported. held are the leftovers
// still under their private names (a held directory's files are there).
func recoverJournals(cfg Config, rootfd int, held []string) (*Interrupted, []journal.Recovered, error) {
	found, err := journal.Recover(rootfd, heldNames(rootfd, held))
	if cfg.Mode != Force && len(found) > 0 {
		// Probed after reading: a run that started since holds the lock
		// now and its journal is not a leftover. (One that started and
		// ended in between is reported: an over-report, never an
		// under-report.)
		unlock, lerr := sweep.Lock(rootfd)
		if errors.Is(lerr, fserr.ErrLocked) {
			return nil, nil, err
		}
		if lerr == nil {
			unlock() //nolint:errcheck // released at once
		}
	}
	if len(found) == 0 {
		return nil, nil, err
	}
	in := &Interrupted{Finished: true}
	for _, r := range found {
		in.Journals = append(in.Journals, r.Journal)
		in.Removed = append(in.Removed, r.Removed...)
		in.Rewritten = append(in.Rewritten, r.Rewritten...)
		in.Finished = in.Finished && r.Finished
		for _, t := range r.Temps {
			in.Temps = append(in.Temps, t.Path)
		}
	}
	slices.Sort(in.Temps)
	in.Temps = slices.Compact(in.Temps)
	slices.Sort(in.Removed)
	slices.Sort(in.Rewritten)
	in.Removed, in.Rewritten = slices.Compact(in.Removed), slices.Compact(in.Rewritten)
	return in, found, err
}

// heldNames says where a journaled file may be held: under its private
// name (sweep holds a file there between its last check and its unlink),
// or in a directory a killed run held whole: one of the leftovers (the
// private paths still in place), or, for a directory the scan did not
// visit (a scope this run does not select), one found by looking for each
// ancestor's private name beneath the root, once per ancestor (decision
// 290). The identity check is the caller's.
func heldNames(rootfd int, leftovers []string) func(p string) []string {
	dirs := map[string]string{} // original path → private path ("" when none)
	for _, l := range leftovers {
		dir, name := path.Split(l)
		dirs[dir+strings.TrimPrefix(name, sweep.PrivatePrefix)] = l
	}
	return func(p string) []string {
		dir, name := path.Split(p)
		out := []string{dir + sweep.PrivatePrefix + name}
		for a := path.Dir(p); a != "."; a = path.Dir(a) {
			l, ok := dirs[a]
			if !ok {
				ad, an := path.Split(a)
				l = ad + sweep.PrivatePrefix + an
				if !local.IsDir(rootfd, l) {
					l = ""
				}
				dirs[a] = l
			}
			if l != "" {
				out = append(out, l+p[len(a):])
			}
		}
		return out
	}
}

// runJournal is the run's one intent journal, shared by its deletions
// and its rewrites and opened at the first intent, so that a run with
// nothing to delete or rewrite creates none. A failure to open or write
// it is kept: every later intent fails with it, so nothing is acted on
// after a write that may have left a partial line.
type runJournal struct {
	rootfd int
	j      *journal.Journal
	err    error
}

// intend journals the intents durably (journal.Journal.Intend), opening
// the journal first when this is the run's first intent.
func (r *runJournal) intend(ins []journal.Intent) error {
	if r.err == nil && r.j == nil {
		r.j, r.err = journal.Open(r.rootfd)
	}
	if r.err == nil {
		r.err = r.j.Intend(ins)
	}
	return r.err
}

// rel is the journal's name (journal.Path before it is opened).
func (r *runJournal) rel() string {
	if r.j != nil {
		return r.j.Rel()
	}
	return journal.Path
}

// done tells the next run that the deletions and rewrites had ended. A
// journal that cannot take it changes nothing (the record is written
// next, then the journal removed), so its failure is not reported.
func (r *runJournal) done() {
	if r.j != nil && r.err == nil {
		r.j.Done() //nolint:errcheck
	}
}

// deleteJournaled deletes the targets in batches, each journaled and
// synced before any of its files is touched (sweep.Options.Intend). The
// next batches' intents are written and synced while the current batch is
// deleted (one goroutine at a time uses the journal: it runs at most four
// batches ahead of the last one begun, and each batch waits for its
// intents), so a slow fdatasync overlaps deletions instead of stopping
// them, and the workers go on from one batch to the next without waiting
// for each other; a batch whose intents are durable but not yet acted on when a
// run is killed names files that are still there, which the next run
// does not report. A journal that cannot be opened or written stops the
// deletions there; the rest are counted in the journal error.
func deleteJournaled(ctx context.Context, cfg Config, jn *runJournal, targets []sweep.Target, holds []string) sweep.Report {
	var buf []journal.Intent
	opts := sweep.Options{Batch: journalBatch, Hold: holds, Exchange: exchanged(), Intend: func(batch []sweep.Target) error {
		buf = buf[:0]
		for _, t := range batch {
			buf = append(buf, journal.Intent{Op: journal.Delete, Path: t.Path, Dev: t.Dev, Ino: t.Ino, Size: t.Size, MtimeNs: t.MtimeNs})
		}
		return jn.intend(buf)
	}}
	if cfg.Progress != nil {
		opts.Progress = cfg.Progress
	}
	rep := sweep.Delete(ctx, jn.rootfd, targets, opts)
	if rep.IntendErr != nil {
		rep.Errors = append(rep.Errors, journalError(rep.IntendErr, jn.rel(), rep.NotIntended))
	}
	return rep
}

// journalError is the errors[] entry of a journal that failed with
// notAttempted deletions left.
func journalError(err error, rel string, notAttempted int) *fserr.Error {
	var fe *fserr.Error
	if errors.As(err, &fe) {
		rel, err = fe.Path, fe.Err
	}
	return &fserr.Error{Op: fserr.OpJournal, Path: rel, Err: &fserr.NotJournaledError{Cause: err, NotAttempted: notAttempted}}
}
