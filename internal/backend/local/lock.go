//go:build linux

package local

import (
	"context"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/backend/local/sweep"
)

// Flock is the lock of a directory root as the record's lock rule takes
// it (record.Lock): sweep.Lock's flock on the root directory. The kernel
// holds it until its descriptor is closed and releases it when the
// process ends, however it ends: no other process can take it over or
// break it, so it has no lease (a run killed holding it is provably over
// at once) and nothing to prove.
type Flock struct{ unlock func() error }

// LockRoot takes the flock on the root rootfd (sweep.Lock: an
// *fserr.Error with cause fserr.ErrLocked when another run holds it).
func LockRoot(rootfd int) (*Flock, error) {
	unlock, err := sweep.Lock(rootfd)
	if err != nil {
		return nil, err
	}
	return &Flock{unlock: unlock}, nil
}

// Prove has nothing to prove: the flock is this run's while its
// descriptor is open.
func (*Flock) Prove(context.Context, time.Time) error { return nil }

// Lease is 0: the flock ends with the process.
func (*Flock) Lease() int64 { return 0 }

// Ended is "": a flock is never taken over.
func (*Flock) Ended() string { return "" }

// Release drops the flock.
func (l *Flock) Release(context.Context) error { return l.unlock() }

// FlockProbe is the record.Prober of a directory root: a live run holds
// the flock (sweep.Held); no run is ever named over by a lease.
type FlockProbe struct{ FD int }

// Probe reports whether another process holds the root's flock.
func (p FlockProbe) Probe(context.Context, time.Time) (live bool, ended string, err error) {
	live, err = sweep.Held(p.FD)
	return live, "", err
}
