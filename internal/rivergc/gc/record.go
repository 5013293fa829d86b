//go:build linux

package gc

import (
	"context"
	"errors"
	"io"
	"path"
	"strings"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/backend/local"
	"github.com/plangate-gc/plangate-gc/internal/backend/local/journal"
	"github.com/plangate-gc/plangate-gc/internal/backend/local/sweep"
	"github.com/plangate-gc/plangate-gc/internal/backend/record"
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
	// Journals are the journals read (on disk journal.Path and
	// journal.AltPath, on a bucket its journal prefix), sorted.
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

// runRecord is a run's record over the seam (package record, SPEC I2):
// its root's journals, its lock (nil in a dry-run) or, without one, the
// probe of the root's lock, the journal it writes, and what the journals
// of killed runs said. A directory root and a bucket differ only in the
// primitives they give it, chosen when the root is opened.
type runRecord struct {
	j     record.Journals
	lock  record.Lock
	probe record.Prober
	w     *record.Writer
	rec   *record.Recovered
	// where names the journal in an errors[] entry whose failure names
	// none (the bucket's journal prefix; on disk journal.Path).
	where string
	// removeTemps removes the temporary copies killed rewrites left, on a
	// root whose rewrites make them (a directory); nil on one that makes
	// none (a bucket).
	removeTemps func([]record.Intent) ([]string, error)
}

// newRunRecord is the record of a run on j, guarded by lock (nil in a
// dry-run, which asks probe instead).
func newRunRecord(j record.Journals, lock record.Lock, probe record.Prober, where string) *runRecord {
	return &runRecord{j: j, lock: lock, probe: probe, w: record.NewWriter(j, lock), where: where}
}

// recover reads the journals of killed runs (record.Recover): what they
// did, the errors[] entries reading them gave (an unreadable journal is
// read as far as it goes, then set aside: decisions 133, 287), and, when
// one could not be read, why. A --force run removes the temporary copies
// killed rewrites left, named by their journals.
func (r *runRecord) recover(ctx context.Context, cfg Config) (*Interrupted, []*fserr.Error, error) {
	rec, rerr := record.Recover(ctx, r.j, r.lock, r.probe, time.Now())
	r.rec = rec
	var errs []*fserr.Error
	var in *Interrupted
	if rec != nil {
		in = &Interrupted{Journals: rec.Journals, Removed: rec.Removed, Rewritten: rec.Rewritten, Finished: rec.Finished}
		for _, t := range rec.Temps {
			in.Temps = append(in.Temps, t.Key)
		}
		if cfg.Mode == Force && len(rec.Temps) > 0 && r.removeTemps != nil {
			// A killed rewrite's copy, named by its journal: ours, removed.
			removed, terr := r.removeTemps(rec.Temps)
			in.Temps, in.TempsRemoved = removed, true
			errs = append(errs, r.fsErrors(terr)...)
		}
		for _, u := range rec.Unreadable {
			errs = append(errs, fserr.New(fserr.OpJournal, u.Unit.Name, &fserr.UnreadableJournalError{Lines: u.Lines, SetAside: u.Aside}))
		}
	}
	return in, append(errs, r.fsErrors(rerr)...), rerr
}

// fsErrors is the failures joined in err as errors[] entries: an
// *fserr.Error as it is, any other naming the journal.
func (r *runRecord) fsErrors(err error) []*fserr.Error {
	if err == nil {
		return nil
	}
	var out []*fserr.Error
	for _, e := range flatten(err) {
		var fe *fserr.Error
		if !errors.As(e, &fe) {
			fe = fserr.New(fserr.OpJournal, r.where, e)
		}
		out = append(out, fe)
	}
	return out
}

// intend journals the intents durably before any is acted on
// (record.Writer.Intend).
func (r *runRecord) intend(ctx context.Context, ins []record.Intent) error {
	return r.w.Intend(ctx, ins)
}

// done tells the next run that the deletions and rewrites had ended. A
// journal that cannot take it changes nothing (the record is written
// next, then the journal removed), so its failure is not reported.
func (r *runRecord) done(ctx context.Context) {
	r.w.Done(ctx) //nolint:errcheck
}

// end removes the run's journals and those of killed runs when commit
// (record.Discard), else keeps them for the next run; then releases the
// lock.
func (r *runRecord) end(ctx context.Context, commit bool) error {
	var err error
	if commit {
		err = record.Discard(ctx, r.j, r.rec, r.w)
	}
	if c, ok := r.j.(io.Closer); ok {
		c.Close() //nolint:errcheck // the journal stays in place
	}
	if r.lock != nil {
		r.lock.Release(ctx) //nolint:errcheck // a flock goes with the process, a lease with its time
	}
	return err
}

// journalError is the errors[] entry of a journal that failed with
// notAttempted deletions or rewrites left: named after the intent the
// reader could not read back, or the journal that failed.
func (r *runRecord) journalError(err error, notAttempted int) *fserr.Error {
	rel := r.where
	var fe *fserr.Error
	var nj *record.NotJournalableError
	switch {
	case errors.As(err, &nj):
		rel, err = nj.Key, fserr.ErrNotJournalable
	case errors.As(err, &fe):
		rel, err = fe.Path, fe.Err
	}
	return &fserr.Error{Op: fserr.OpJournal, Path: rel, Err: &fserr.NotJournaledError{Cause: err, NotAttempted: notAttempted}}
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
func deleteJournaled(ctx context.Context, cfg Config, rootfd int, r *runRecord, targets []sweep.Target, holds []string) sweep.Report {
	var buf []record.Intent
	opts := sweep.Options{Batch: journalBatch, Hold: holds, Exchange: exchanged(), Intend: func(batch []sweep.Target) error {
		buf = buf[:0]
		for _, t := range batch {
			buf = append(buf, record.Intent{Op: record.Delete, Key: t.Path, Tag: journal.Tag(t.Dev, t.Ino, t.Size, t.MtimeNs)})
		}
		return r.intend(context.WithoutCancel(ctx), buf)
	}}
	if cfg.Progress != nil {
		opts.Progress = cfg.Progress
	}
	rep := sweep.Delete(ctx, rootfd, targets, opts)
	if rep.IntendErr != nil {
		rep.Errors = append(rep.Errors, r.journalError(rep.IntendErr, rep.NotIntended))
	}
	return rep
}
