package backend

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

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

// Lock is a run's exclusive lock on a store without descriptors (SPEC
// H4): an object created only if absent, naming its holder and a lease.
// A lease that has run out is taken over only by a conditional write on
// the tag read, so two runs that find the same stale lease cannot both
// win; Renew extends the lease the same way.
type Lock struct {
	b      Backend
	key    string
	holder string
	ttl    time.Duration
	obj    Object
	wrote  time.Time // when the lease was last written
	// Ended names the holder whose lease had run out when Acquire took
	// the lock over ("" when the lock was free): that run is provably
	// over (Recover).
	Ended string
}

// ErrLockLost means the lock object is no longer the one this run wrote:
// deleted (an operator, a sync tool) or rewritten by another run. The
// run stops before its next batch and keeps its journal (SPEC B8 5).
var ErrLockLost = errors.New("the lock is no longer this run's: deleted or rewritten by another")

// Acquire takes the lock at key for holder for ttl from now, or fails
// with a *LockedError when a live lease is held by another run.
func Acquire(ctx context.Context, b Backend, key, holder string, now time.Time, ttl time.Duration) (*Lock, error) {
	l := &Lock{b: b, key: key, holder: holder, ttl: ttl}
	l.wrote = now
	obj, err := PutOwn(ctx, b, key, l.body(now), Cond{IfAbsent: true})
	if err == nil {
		l.obj = obj
		return l, nil
	}
	if !errors.Is(err, ErrChanged) {
		return nil, err
	}
	cur, held, err := read(ctx, b, key)
	switch {
	case errors.Is(err, ErrNotExist): // released in between: try once more
		if obj, err = PutOwn(ctx, b, key, l.body(now), Cond{IfAbsent: true}); err == nil {
			l.obj = obj
			return l, nil
		}
		return nil, lockFailure(key, err)
	case err != nil:
		return nil, err
	case held.Expires > now.Unix():
		return nil, &LockedError{Key: key, Holder: held.Holder, Expires: held.Expires}
	}
	obj, err = PutOwn(ctx, b, key, l.body(now), Cond{IfMatch: cur.Tag})
	if err != nil {
		return nil, lockFailure(key, err)
	}
	l.obj, l.Ended = obj, held.Holder
	return l, nil
}

// lockFailure is the error of a write that lost the race for the lock.
func lockFailure(key string, err error) error {
	if errors.Is(err, ErrChanged) {
		return &LockedError{Key: key, Holder: "another run"}
	}
	return err
}

// UnreadableHolder names the holder of a lock object whose body is no
// lease (a third party's write, a garbled one).
const UnreadableHolder = "an unreadable lock object"

// unreadableLease is how long a lock object whose body is no lease holds
// from its last write: river gc's own lease. Taking it over at once
// (attack3 F8) let a second run delete beside a live one whose lock a
// third party had overwritten, and remove its journal after its record.
const unreadableLease = 15 * time.Minute

// read returns the lock object at key and its lease. A body that is no
// lease (not JSON, or neither holder nor expiry) holds for
// unreadableLease from the object's last write, then can be taken over
// (conditionally, like any stale lease).
func read(ctx context.Context, b Backend, key string) (Object, lease, error) {
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

func (l *Lock) body(now time.Time) []byte {
	data, _ := json.Marshal(lease{Holder: l.holder, Expires: now.Add(l.ttl).Unix()}) // cannot fail
	return append(data, '\n')
}

// Renew proves the lock is still this run's and extends its lease: a
// conditional write on the tag this run wrote, or, for a lease written
// less than a third of its time ago, a read of the lock object that must
// still carry that tag (a lock deleted or rewritten by anyone, not only
// taken over by a run, is lost). It fails with ErrLockLost when the lock
// is no longer this run's.
func (l *Lock) Renew(ctx context.Context, now time.Time) error {
	if now.Sub(l.wrote) < l.ttl/3 {
		_, cur, err := l.b.Get(ctx, l.key, 0)
		switch {
		case errors.Is(err, ErrNotExist) || err == nil && cur.Tag != l.obj.Tag:
			return fmt.Errorf("lock %s: %w", l.key, ErrLockLost)
		case err != nil:
			return fmt.Errorf("lock %s: %w", l.key, err)
		}
		return nil
	}
	obj, err := PutOwn(ctx, l.b, l.key, l.body(now), Cond{IfMatch: l.obj.Tag})
	if errors.Is(err, ErrChanged) || errors.Is(err, ErrUnknown) {
		return fmt.Errorf("renew lock %s: %w (%w)", l.key, ErrLockLost, err)
	}
	if err != nil {
		return fmt.Errorf("renew lock %s: %w", l.key, err)
	}
	l.obj, l.wrote = obj, now
	return nil
}

// Expires is when the lease last written runs out (Unix seconds).
func (l *Lock) Expires() int64 { return l.wrote.Add(l.ttl).Unix() }

// EndedHolder returns the holder of the lock object at key when its lease has
// run out at now ("" when none is there or it is live): a dry-run's way
// of telling a run provably over.
func EndedHolder(ctx context.Context, b Backend, key string, now time.Time) (string, error) {
	_, held, err := read(ctx, b, key)
	switch {
	case errors.Is(err, ErrNotExist):
		return "", nil
	case err != nil || held.Expires > now.Unix():
		return "", err
	}
	return held.Holder, nil
}

// Release deletes the lock object if it is still this run's.
func (l *Lock) Release(ctx context.Context) error {
	if err := l.b.Delete(ctx, []Object{l.obj})[0]; err != nil && !errors.Is(err, ErrNotExist) {
		return fmt.Errorf("release lock %s: %w", l.key, err)
	}
	return nil
}

// Held reports whether a live lease is held at key (a dry-run's probe).
func Held(ctx context.Context, b Backend, key string, now time.Time) (bool, error) {
	_, held, err := read(ctx, b, key)
	if errors.Is(err, ErrNotExist) {
		return false, nil
	}
	return err == nil && held.Expires > now.Unix(), err
}
