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
	"github.com/plangate-gc/plangate-gc/internal/backend/record"
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

// deleteBatchKeys is the most keys one delete request of the run
// carries (the S3 backend's DeleteObjects batch): the canary proves the
// conditions in a request that large.
const deleteBatchKeys = 1000

// ProveConditions checks, before a --force run on the bucket b deletes
// anything, that the server refuses a wrong ETag and a create over an
// existing object, in the shape the run's requests have (SPEC H3, B8
// 3); a *backend.ConditionError when it does not.
func ProveConditions(ctx context.Context, b backend.Backend) error {
	return backend.ProveConditions(ctx, b, CanaryKey()+"/", deleteBatchKeys)
}

// begin takes the bucket's lock for --force: an object created only if
// absent, naming this run and a lease (SPEC H4, record.Acquire), and
// marks the prefix a root (RootMarker).
func (t *objectTree) begin(ctx context.Context, cfg Config) (session, error) {
	name := runName()
	var lock record.Lock // none for a dry-run
	if cfg.Mode == Force {
		l, err := record.Acquire(ctx, t.b, LockKey, name, time.Now(), leaseTTL)
		if err != nil {
			var le *record.LockedError
			if errors.As(err, &le) {
				if h, ok := holderOf(le.Holder); ok {
					return nil, &LockedError{Path: t.path, Holder: h, Known: true}
				}
				return nil, fmt.Errorf("lock %s: %w (%w)", t.path, fserr.ErrLocked, err)
			}
			return nil, fmt.Errorf("lock %s: %w", t.path, err)
		}
		_, err = t.b.Put(ctx, RootMarker, []byte("river gc: this prefix is a River Review root\n"), backend.Cond{IfAbsent: true})
		if err != nil && !errors.Is(err, backend.ErrChanged) {
			l.Release(context.WithoutCancel(ctx)) //nolint:errcheck // a lock left behind expires with its lease
			return nil, fmt.Errorf("root marker %s: %w", RootMarker, err)
		}
		lock = l
	}
	journals := record.NewObjects(t.b, JournalDir, name)
	return &objectSession{t: t, rec: newRunRecord(journals, lock, record.LeaseProbe{B: t.b, Key: LockKey}, JournalDir)}, nil
}

// objectSession is a run on a bucket root (SPEC Part H): its record on
// journal objects under a lease lock, the deletions and the rewrites
// made of conditional requests.
type objectSession struct {
	t         *objectTree
	rec       *runRecord
	versioned bool
}

// restore has nothing to do: a bucket holds nothing under private names.
func (s *objectSession) restore([]string) sweep.Report { return sweep.Report{} }

// recover reads the journal objects of killed runs (runRecord.recover).
func (s *objectSession) recover(ctx context.Context, cfg Config, _ []string) (*Interrupted, []*fserr.Error, error) {
	return s.rec.recover(ctx, cfg)
}

// change asks whether the bucket keeps versions (SPEC H5), before
// anything is deleted.
func (s *objectSession) change(ctx context.Context) {
	s.versioned, _ = s.t.b.Versioned(ctx) // unknown (no permission) is reported as not versioned
}

func (s *objectSession) delete(ctx context.Context, cfg Config, targets []sweep.Target, _ []string) (sweep.Report, bool) {
	return deleteObjects(ctx, cfg, s.t, s.rec, targets)
}

// rewrite writes the store back without its removed entries (SPEC D5 on
// a bucket): journaled, then a PUT If-Match on the ETag that was read,
// so a store rewritten since is not replaced. A write once sent is
// finished whatever happens to ctx.
func (s *objectSession) rewrite(ctx context.Context, cfg Config, job rewriteJob) (int, error, bool) {
	rel := job.Path()
	tag := s.t.tags[rel]
	if err := s.rec.intend(ctx, []record.Intent{{Op: record.Rewrite, Key: rel, Tag: tag}}); err != nil {
		return 0, &journalFailure{entry: s.rec.journalError(err, job.Count)}, lockLost(err)
	}
	kept := job.Kept()
	err := rewriteStore(context.WithoutCancel(ctx), s.t.b, rel, tag, kept)
	uncertain := err != nil && !errors.Is(err, backend.ErrChanged)
	if errors.Is(err, backend.ErrChanged) {
		err = &fserr.ChangedError{Fields: []fserr.Field{fserr.FieldETag}}
	}
	return len(kept), err, uncertain
}

func (s *objectSession) done(ctx context.Context) { s.rec.done(ctx) }

// removeRunDirs has nothing to remove: a prefix is no object of its own.
func (s *objectSession) removeRunDirs([]runDir) (removed, stay []string) { return nil, nil }

// warnings say that a bucket has no git index (SPEC H2) and, when it
// keeps versions, that the space returns only when they expire (SPEC H5).
func (s *objectSession) warnings(_ Config, out *Outcome) []Warning {
	ws := []Warning{{Kind: WarnNoGitIndex, Path: s.t.path}}
	n := 0
	for _, sc := range out.Scopes {
		if sc.Scope.Store() == "" {
			n += len(sc.Removed)
		}
	}
	if s.versioned && n > 0 {
		ws = append(ws, Warning{Kind: WarnVersioned, Path: s.t.path, N: n})
	}
	return ws
}

func (s *objectSession) requests() map[string]int { return s.t.b.Requests() }

func (s *objectSession) end(ctx context.Context, commit bool) error { return s.rec.end(ctx, commit) }

// lockLost reports whether err is a journal write refused because the
// run's lock is gone or another's: the run stops there and keeps its
// journal, since another run may be deleting beside it.
func lockLost(err error) bool { return errors.Is(err, record.ErrLockLost) }

// deleteObjects deletes the targets in journal batches: each batch is
// named in one journal object (with the ETags judged) before any of its
// DeleteObjects requests is sent, and the lock's lease is renewed with
// it. The next batch's lock proof and journal are written while the
// batch before it is still being deleted (at most two batches
// outstanding; the backend bounds the requests in flight across them),
// so the engine is never left idle between batches. A journal that
// cannot be written, or a lost lock, stops the deletions there: the
// batch in flight is finished, no other is sent. A batch once sent is
// finished whatever happens to ctx (SIGINT): a request cancelled in
// flight may have been acted on. uncertain says that some delete failed
// in a way that leaves its outcome unknown.
func deleteObjects(ctx context.Context, cfg Config, t *objectTree, r *runRecord, targets []sweep.Target) (rep sweep.Report, uncertain bool) {
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
				// still be acted on, so its journal stays.
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
		intents := make([]record.Intent, len(batch))
		for i, tg := range batch {
			objs[i] = backend.Object{Key: tg.Path, Size: tg.Size, Tag: t.tags[tg.Path]}
			intents[i] = record.Intent{Op: record.Delete, Key: tg.Path, Tag: objs[i].Tag}
		}
		if err := r.intend(ctx, intents); err != nil {
			rep.Errors = append(rep.Errors, r.journalError(err, len(ts)-lo))
			uncertain = uncertain || lockLost(err)
			break
		}
		next := &sent{batch: batch, done: make(chan []error, 1)}
		go func() { next.done <- t.b.Delete(context.WithoutCancel(ctx), objs) }()
		finish()
		inFlight = next
	}
	finish()
	return rep, uncertain
}

// rewriteStore writes a store back on the ETag it was read with, checked
// before and after (SPEC B8 3): a read first shows the store still
// carries that ETag (else ErrChanged: an entry appended since the read
// is kept however the server treats If-Match), then the conditional
// write, then a read shows the store holds what was written. Another
// object there at once leaves unknown whether an entry written in
// between survived (ErrUnknown: the journal stays).
func rewriteStore(ctx context.Context, b backend.Backend, rel, tag string, kept []byte) error {
	switch _, cur, err := b.Get(ctx, rel, 0); {
	case errors.Is(err, backend.ErrNotExist):
		return fmt.Errorf("rewrite %s: %w", rel, backend.ErrChanged)
	case err != nil:
		return err
	case cur.Tag != tag:
		return fmt.Errorf("rewrite %s: %w", rel, backend.ErrChanged)
	}
	obj, err := backend.PutOwn(ctx, b, rel, kept, backend.Cond{IfMatch: tag})
	if err != nil {
		return err
	}
	if _, cur, err := b.Get(ctx, rel, 0); err != nil || cur.Tag != obj.Tag {
		return fmt.Errorf("rewrite %s: %w (written, then found otherwise)", rel, backend.ErrUnknown)
	}
	return nil
}
