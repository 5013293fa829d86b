//go:build linux

package gc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/backend"
	"github.com/plangate-gc/plangate-gc/internal/backend/local/sweep"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
)

// objectJournalBatch is how many deletions one journal object names
// before any of them is sent: ten DeleteObjects batches, so a run costs
// about one request per 1000 objects beyond the minimum's two. A
// variable only so that a test can cut a few objects into batches.
var objectJournalBatch = 10 * 1000

// leaseTTL is how long a bucket lock holds without renewal; each journal
// batch renews it.
const leaseTTL = 15 * time.Minute

// runName names this run in its lock and journal objects: host, process
// and start, unique enough that two runs never share a journal name.
func runName() string {
	host, _ := os.Hostname()
	host = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' {
			return r
		}
		return '_'
	}, host)
	return fmt.Sprintf("%s.%d.%d", host, os.Getpid(), time.Now().UnixNano())
}

// holderOf reads the process a bucket lock names (runName's
// host.pid.nanoseconds) and when it started, as a disk lock's holder is
// named.
func holderOf(run string) (sweep.Holder, bool) {
	parts := strings.Split(run, ".")
	if len(parts) < 3 {
		return sweep.Holder{}, false
	}
	pid, err := strconv.Atoi(parts[len(parts)-2])
	if err != nil || pid <= 0 {
		return sweep.Holder{}, false
	}
	h := sweep.Holder{PID: pid, Host: strings.Join(parts[:len(parts)-2], ".")}
	if ns, err := strconv.ParseInt(parts[len(parts)-1], 10, 64); err == nil && ns > 0 {
		h.Start = ns / int64(time.Second) // when the run started (runName)
	}
	return h, true
}

// ProveConditions checks, before a --force run on a bucket deletes
// anything, that the server refuses a wrong ETag and a create over an
// existing object (SPEC H3); a *backend.ConditionError when it does not.
func ProveConditions(ctx context.Context, root *Root) error {
	return backend.ProveConditions(ctx, root.Objects, CanaryDir+runName())
}

// runObjects is Run on a bucket (SPEC Part H): the same judgement, with
// the lock, the journal, the deletions and the rewrites made of
// conditional requests.
func runObjects(ctx context.Context, cfg Config) (Outcome, error) {
	b := cfg.Root.Objects
	name := runName()
	bg := context.WithoutCancel(ctx) // the record's own requests outlive a signal
	var lock *backend.Lock
	if cfg.Mode == Force {
		var err error
		if lock, err = backend.Acquire(ctx, b, LockKey, name, time.Now(), leaseTTL); err != nil {
			var le *backend.LockedError
			if errors.As(err, &le) {
				if h, ok := holderOf(le.Holder); ok {
					return Outcome{}, &LockedError{Path: cfg.Root.Path, Holder: h, Known: true}
				}
				return Outcome{}, fmt.Errorf("lock %s: %w (%w)", cfg.Root.Path, fserr.ErrLocked, err)
			}
			return Outcome{}, fmt.Errorf("lock %s: %w", cfg.Root.Path, err)
		}
		defer lock.Release(bg) //nolint:errcheck // a lock left behind expires with its lease
		_, err = b.Put(ctx, RootMarker, []byte("river gc: this prefix is a River Review root\n"), backend.Cond{IfAbsent: true})
		if err != nil && !errors.Is(err, backend.ErrChanged) {
			return Outcome{}, fmt.Errorf("root marker %s: %w", RootMarker, err)
		}
	}
	j, err := judge(cfg)
	if err != nil {
		return Outcome{}, err
	}
	out := j.out
	rec, rerr := backend.Recover(ctx, b, JournalDir)
	if rec != nil && cfg.Mode != Force {
		if held, _ := backend.Held(ctx, b, LockKey, time.Now()); held {
			rec = nil // a live run's journal, not an interrupted one's
		}
	}
	if rec != nil {
		out.Interrupted = &Interrupted{Journals: []string{JournalDir}, Removed: rec.Removed, Rewritten: rec.Rewritten, Finished: rec.Finished}
	}
	if rerr != nil {
		out.Errors = append(out.Errors, fserr.New(fserr.OpJournal, JournalDir, rerr))
	}
	for _, u := range unreadable(rec) { // read as far as it goes, then set aside (decision 287)
		out.Errors = append(out.Errors, fserr.New(fserr.OpJournal, u.Object.Key, &fserr.UnreadableJournalError{Lines: u.Lines, SetAside: u.Aside}))
	}
	jn := backend.NewJournal(b, JournalDir, name)
	versioned, uncertain := false, false
	switch {
	case cfg.Mode != Force:
	case rerr != nil && (len(j.targets) > 0 || len(j.rewrites) > 0):
		notAttempted := len(j.targets)
		for _, job := range j.rewrites {
			notAttempted += job.count
		}
		out.Errors[len(out.Errors)-1].Err = &fserr.NotJournaledError{Cause: rerr, NotAttempted: notAttempted}
		out.apply(sweep.Report{})
		for _, job := range j.rewrites {
			out.keepStore(job.scope)
		}
	default:
		versioned, _ = b.Versioned(ctx) // unknown (no permission) is reported as not versioned
		if len(j.targets) > 0 {
			var rep sweep.Report
			rep, uncertain = deleteObjects(ctx, cfg, jn, lock, j.targets)
			out.apply(rep)
		}
		if out.rewriteObjectStores(ctx, cfg, jn, j.rewrites) {
			uncertain = true
		}
		jn.Done(bg) //nolint:errcheck // as on disk: the record comes next, then the journal goes
	}
	out.Warnings = append(out.Warnings, Warning{Kind: WarnNoGitIndex, Path: cfg.Root.Path})
	n := 0
	for _, s := range out.Scopes {
		if s.Scope.Store() == "" {
			n += len(s.Removed)
		}
	}
	if versioned && n > 0 {
		out.Warnings = append(out.Warnings, Warning{Kind: WarnVersioned, Path: cfg.Root.Path, N: n})
	}
	out.sort()
	out.Requests = b.Requests()
	recorded, err := true, error(nil)
	if cfg.Record != nil {
		recorded, err = cfg.Record(out)
	}
	// A delete whose outcome is unknown (the request failed after its
	// retries: the server may have acted) keeps the journal, so the next
	// run names what is gone; never a deletion without a record.
	if cfg.Mode == Force && recorded && rerr == nil && !uncertain {
		objs := jn.Objects()
		if rec != nil {
			objs = append(objs, slices.DeleteFunc(slices.Clone(rec.Objects), func(o backend.Object) bool {
				return slices.ContainsFunc(rec.Unreadable, func(u backend.Unreadable) bool { return u.Object.Key == o.Key })
			})...)
		}
		err = errors.Join(err, backend.Remove(bg, b, objs), backend.SetAside(bg, b, unreadable(rec)))
	}
	return out, err
}

// unreadable is rec's unreadable journal objects (none when rec is nil).
func unreadable(rec *backend.Recovered) []backend.Unreadable {
	if rec == nil {
		return nil
	}
	return rec.Unreadable
}

// deleteObjects deletes the targets in journal batches: each batch is
// named in one journal object (with the ETags judged) before any of its
// DeleteObjects requests is sent, and the lock's lease is renewed with
// it. The next batch's lease renewal and journal are written while the
// batch before it is still being deleted (at most two batches
// outstanding; the backend bounds the requests in flight across them),
// so the engine is never left idle between batches. A journal that
// cannot be written, or a lost lock, stops the deletions there: the
// batch in flight is finished, no other is sent. A batch once sent is
// finished whatever happens to ctx (SIGINT): a request cancelled in
// flight may have been acted on. uncertain says that some delete failed
// in a way that leaves its outcome unknown.
func deleteObjects(ctx context.Context, cfg Config, jn *backend.Journal, lock *backend.Lock, targets []sweep.Target) (rep sweep.Report, uncertain bool) {
	ts := slices.Clone(targets)
	slices.SortStableFunc(ts, func(a, b sweep.Target) int { return strings.Compare(a.Path, b.Path) })
	type sent struct {
		batch []sweep.Target
		done  chan []error
	}
	var inFlight *sent
	finish := func() { // the results of the batch in flight, in key order
		if inFlight == nil {
			return
		}
		for i, err := range <-inFlight.done {
			p := inFlight.batch[i].Path
			switch {
			case err == nil:
				rep.Deleted = append(rep.Deleted, p)
			case errors.Is(err, backend.ErrNotExist):
				rep.Gone = append(rep.Gone, p)
			case errors.Is(err, backend.ErrChanged):
				rep.Errors = append(rep.Errors, fserr.New(fserr.OpDelete, p, &fserr.ChangedError{Fields: []fserr.Field{fserr.FieldETag}}))
			case errors.Is(err, backend.ErrNotDone):
				// Unchanged when looked up; a request that was sent may
				// still be acted on, so its journal stays (attack3 F7).
				rep.Errors = append(rep.Errors, fserr.New(fserr.OpDelete, p, err))
				uncertain = uncertain || !errors.Is(err, backend.ErrNotSent)
			default:
				rep.Errors = append(rep.Errors, fserr.New(fserr.OpDelete, p, err))
				uncertain = true
			}
		}
		if cfg.Progress != nil {
			cfg.Progress(len(rep.Deleted)+len(rep.Gone)+len(rep.Errors), len(ts))
		}
		inFlight = nil
	}
	for lo := 0; lo < len(ts); lo += objectJournalBatch {
		if ctx.Err() != nil {
			rep.NotAttempted += len(ts) - lo
			break
		}
		batch := ts[lo:min(lo+objectJournalBatch, len(ts))]
		objs := make([]backend.Object, len(batch))
		intents := make([]backend.Intent, len(batch))
		for i, t := range batch {
			objs[i] = backend.Object{Key: t.Path, Size: t.Size, Tag: cfg.Root.tags[t.Path]}
			intents[i] = backend.Intent{Op: "delete", Key: t.Path, Tag: objs[i].Tag}
		}
		err := lock.Renew(ctx, time.Now())
		if err == nil {
			err = jn.Intend(ctx, intents)
		}
		if err != nil {
			rep.Errors = append(rep.Errors, &fserr.Error{Op: fserr.OpJournal, Path: JournalDir,
				Err: &fserr.NotJournaledError{Cause: err, NotAttempted: len(ts) - lo}})
			break
		}
		next := &sent{batch: batch, done: make(chan []error, 1)}
		go func() { next.done <- cfg.Root.Objects.Delete(context.WithoutCancel(ctx), objs) }()
		finish()
		inFlight = next
	}
	finish()
	return rep, uncertain
}

// rewriteObjectStores writes each store back without its removed entries
// (SPEC D5 on a bucket): journaled, then a PUT If-Match on the ETag that
// was read, so a store rewritten since is not replaced (errors[], its
// entries kept). A write once sent is finished whatever happens to ctx;
// uncertain says a write failed in a way that leaves its outcome unknown.
func (o *Outcome) rewriteObjectStores(ctx context.Context, cfg Config, jn *backend.Journal, jobs []rewriteJob) (uncertain bool) {
	for _, job := range jobs {
		rel := job.store.Path
		tag := cfg.Root.tags[rel]
		var err error
		var kept []byte
		if ctx.Err() != nil {
			err = &fserr.InterruptedError{NotAttempted: job.count}
		} else if err = jn.Intend(ctx, []backend.Intent{{Op: "rewrite", Key: rel, Tag: tag}}); err != nil {
			o.Errors = append(o.Errors, &fserr.Error{Op: fserr.OpJournal, Path: JournalDir,
				Err: &fserr.NotJournaledError{Cause: err, NotAttempted: job.count}})
			o.keepStore(job.scope)
			continue
		} else {
			kept = job.store.Splice(job.data, job.removed)
			_, err = backend.PutOwn(context.WithoutCancel(ctx), cfg.Root.Objects, rel, kept, backend.Cond{IfMatch: tag})
			uncertain = uncertain || (err != nil && !errors.Is(err, backend.ErrChanged))
		}
		switch {
		case err == nil:
			o.FreedBytes = o.FreedBytes.Add(uint64(len(job.data) - len(kept)))
			continue
		case errors.Is(err, backend.ErrChanged):
			err = &fserr.ChangedError{Fields: []fserr.Field{fserr.FieldETag}}
		}
		o.Errors = append(o.Errors, fserr.New(fserr.OpRewrite, rel, err))
		o.keepStore(job.scope)
	}
	return uncertain
}
