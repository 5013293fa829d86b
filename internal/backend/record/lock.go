package record

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/backend"
)

// Lock is a run's exclusive hold on its root, as the lock rule needs it
// (package doc). A disk's is a flock on the root directory, which the
// kernel releases when the process ends; a bucket's is a lease object
// (LeaseLock).
type Lock interface {
	// Prove shows that the lock is still this run's, and extends its
	// lease, before every journal batch (Writer.Intend): ErrLockLost when
	// it is not, and then the run stops and keeps its journal.
	Prove(ctx context.Context, now time.Time) error
	// Lease is when the lease last proven ends (Unix seconds), written
	// in each journal batch; 0 for a lock without a lease, which ends
	// with the process that holds it (a flock).
	Lease() int64
	// Ended names the holder whose lease had run out when this lock was
	// taken over from it ("" when none): that run is provably over.
	Ended() string
	// Release gives the lock up, if it is still this run's.
	Release(ctx context.Context) error
}

// Prober tells, without taking it, about a root's lock: whether a live
// run holds it, and the holder whose lease has run out ("" when none): a
// dry-run's view of which runs are provably over.
type Prober interface {
	Probe(ctx context.Context, now time.Time) (live bool, ended string, err error)
}

// LockedError means another run holds the lock: Holder names it, and its
// lease runs until Expires (Unix seconds).
type LockedError struct {
	Key     string
	Holder  string
	Expires int64
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("%s is held by %s until %s", e.Key, e.Holder, time.Unix(e.Expires, 0).UTC().Format(time.RFC3339))
}

// Is makes a LockedError match ErrLocked.
func (e *LockedError) Is(target error) bool { return target == ErrLocked }

// ErrLocked is what a held lock wraps (errors.Is).
var ErrLocked = errors.New("locked by another run")

// lease is the lock object's body: who holds it and until when.
type lease struct {
	Holder  string `json:"holder"`
	Expires int64  `json:"expires"`
}

// maxLeaseBytes bounds how much of a lock object is read.
const maxLeaseBytes = 4096

// LeaseLock is a run's exclusive lock on a store without descriptors
// (SPEC H4): an object created only if absent, naming its holder and a
// lease. A lease that has run out is taken over only by a conditional
// write on the tag read, so two runs that find the same stale lease
// cannot both win; Prove extends the lease the same way.
type LeaseLock struct {
	b      backend.Backend
	key    string
	holder string
	ttl    time.Duration
	obj    backend.Object
	wrote  time.Time // when the lease was last written
	ended  string    // the holder whose stale lease Acquire took over
}

// ErrLockLost means the lock object is no longer the one this run wrote:
// deleted (an operator, a sync tool) or rewritten by another run. The
// run stops before its next batch and keeps its journal (SPEC B8 5).
var ErrLockLost = errors.New("the lock is no longer this run's: deleted or rewritten by another")

// Acquire takes the lock at key for holder for ttl from now, or fails
// with a *LockedError when a live lease is held by another run.
func Acquire(ctx context.Context, b backend.Backend, key, holder string, now time.Time, ttl time.Duration) (*LeaseLock, error) {
	l := &LeaseLock{b: b, key: key, holder: holder, ttl: ttl}
	l.wrote = now
	obj, err := backend.PutOwn(ctx, b, key, l.body(now), backend.Cond{IfAbsent: true})
	if err == nil {
		l.obj = obj
		return l, nil
	}
	if !errors.Is(err, backend.ErrChanged) {
		return nil, err
	}
	cur, held, err := read(ctx, b, key)
	switch {
	case errors.Is(err, backend.ErrNotExist): // released in between: try once more
		if obj, err = backend.PutOwn(ctx, b, key, l.body(now), backend.Cond{IfAbsent: true}); err == nil {
			l.obj = obj
			return l, nil
		}
		return nil, lockFailure(key, err)
	case err != nil:
		return nil, err
	case held.Expires > now.Unix():
		return nil, &LockedError{Key: key, Holder: held.Holder, Expires: held.Expires}
	}
	obj, err = backend.PutOwn(ctx, b, key, l.body(now), backend.Cond{IfMatch: cur.Tag})
	if err != nil {
		return nil, lockFailure(key, err)
	}
	l.obj, l.ended = obj, held.Holder
	return l, nil
}

// lockFailure is the error of a write that lost the race for the lock.
func lockFailure(key string, err error) error {
	if errors.Is(err, backend.ErrChanged) {
		return &LockedError{Key: key, Holder: "another run"}
	}
	return err
}

// UnreadableHolder names the holder of a lock object whose body is no
// lease (a third party's write, a garbled one).
const UnreadableHolder = "an unreadable lock object"

// unreadableLease is how long a lock object whose body is no lease holds
// from its last write: river gc's own lease. Taking it over at once
// let a second run delete beside a live one whose lock a
// third party had overwritten, and remove its journal after its record.
const unreadableLease = 15 * time.Minute

// read returns the lock object at key and its lease. A body that is no
// lease (not JSON, or neither holder nor expiry) holds for
// unreadableLease from the object's last write, then can be taken over
// (conditionally, like any stale lease).
func read(ctx context.Context, b backend.Backend, key string) (backend.Object, lease, error) {
	data, obj, err := b.Get(ctx, key, maxLeaseBytes)
	if err != nil {
		return obj, lease{}, err
	}
	var l lease
	if json.Unmarshal(data, &l) != nil || (l.Holder == "" && l.Expires == 0) {
		return obj, lease{Holder: UnreadableHolder, Expires: (obj.ModTimeNs + int64(unreadableLease)) / int64(time.Second)}, nil
	}
	return obj, l, nil
}

func (l *LeaseLock) body(now time.Time) []byte {
	data, _ := json.Marshal(lease{Holder: l.holder, Expires: now.Add(l.ttl).Unix()}) // cannot fail
	return append(data, '\n')
}

// Prove proves the lock is still this run's and extends its lease: a
// conditional write on the tag this run wrote, or, for a lease written
// less than a third of its time ago, a read of the lock object that must
// still carry that tag (a lock deleted or rewritten by anyone, not only
// taken over by a run, is lost). It fails with ErrLockLost when the lock
// is no longer this run's.
func (l *LeaseLock) Prove(ctx context.Context, now time.Time) error {
	if now.Sub(l.wrote) < l.ttl/3 {
		_, cur, err := l.b.Get(ctx, l.key, 0)
		switch {
		case errors.Is(err, backend.ErrNotExist) || err == nil && cur.Tag != l.obj.Tag:
			return fmt.Errorf("lock %s: %w", l.key, ErrLockLost)
		case err != nil:
			return fmt.Errorf("lock %s: %w", l.key, err)
		}
		return nil
	}
	obj, err := backend.PutOwn(ctx, l.b, l.key, l.body(now), backend.Cond{IfMatch: l.obj.Tag})
	if errors.Is(err, backend.ErrChanged) || errors.Is(err, backend.ErrUnknown) {
		return fmt.Errorf("renew lock %s: %w (%w)", l.key, ErrLockLost, err)
	}
	if err != nil {
		return fmt.Errorf("renew lock %s: %w", l.key, err)
	}
	l.obj, l.wrote = obj, now
	return nil
}

// Lease is when the lease last written runs out (Unix seconds).
func (l *LeaseLock) Lease() int64 { return l.wrote.Add(l.ttl).Unix() }

// Ended names the holder whose lease had run out when Acquire took the
// lock over ("" when the lock was free).
func (l *LeaseLock) Ended() string { return l.ended }

// Release deletes the lock object if it is still this run's.
func (l *LeaseLock) Release(ctx context.Context) error {
	if err := l.b.Delete(ctx, []backend.Object{l.obj})[0]; err != nil && !errors.Is(err, backend.ErrNotExist) {
		return fmt.Errorf("release lock %s: %w", l.key, err)
	}
	return nil
}

// LeaseProbe is the Prober of the lease lock at Key.
type LeaseProbe struct {
	B   backend.Backend
	Key string
}

// Probe reads the lock object: a live lease is a live run; the holder of
// a lease that has run out at now is provably over. A lock object that
// cannot be read names no run over.
func (p LeaseProbe) Probe(ctx context.Context, now time.Time) (live bool, ended string, err error) {
	_, held, err := read(ctx, p.B, p.Key)
	switch {
	case errors.Is(err, backend.ErrNotExist):
		return false, "", nil
	case err != nil:
		return false, "", err
	case held.Expires > now.Unix():
		return true, "", nil
	}
	return false, held.Holder, nil
}
