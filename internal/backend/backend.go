// Package backend is the seam between river gc's run and the place its
// artifacts live: one small interface (restic's shape) that the disk and
// an S3 bucket both implement — list, read, conditional write and
// conditional delete — and, built on those four alone, the canary that
// proves a store honours its conditions (canary.go). The record of a run
// (journal, recovery, lock) is package record's, built on the same four.
//
// Every mutation is conditional on an identity tag read earlier (a
// bucket's ETag; on disk the statx identity), so that nothing is deleted
// or overwritten that is not exactly what was judged (SPEC B2, H3).
// backend decides nothing (the engine does) and words nothing.
package backend

import (
	"context"
	"errors"
	"fmt"
)

// Object is one regular file or object as listed: its key relative to
// the root ('/'-separated), its size, its modification time and the tag
// every later conditional operation on it carries.
type Object struct {
	Key       string
	Size      int64
	ModTimeNs int64
	// Tag identifies this content of the object: a bucket's ETag, or the
	// disk's device, inode, size, mtime and ctime.
	Tag string
}

// Cond is the precondition of a Put: exactly one of IfAbsent (create
// only, If-None-Match: *) and IfMatch (replace only that tag).
type Cond struct {
	IfAbsent bool
	IfMatch  string
}

// The errors every implementation reports in these words (wrapped).
var (
	// ErrNotExist: no object has the key.
	ErrNotExist = errors.New("no such object")
	// ErrChanged: the precondition failed; the object is not the one the
	// tag names (or, for IfAbsent, an object exists).
	ErrChanged = errors.New("changed since scanned")
	// ErrNotDone: the request failed and the object is, as far as could
	// be checked, still the one judged: not deleted when it was looked
	// up. A request that was sent may still be acted on later (one queued
	// in a proxy, or retried by a load balancer, after the client gave
	// up), so the journal that names it stays, unless the error
	// also wraps ErrNotSent.
	ErrNotDone = errors.New("not done; the object is unchanged")
	// ErrNotSent: no request for the object was sent (wrapped with
	// ErrNotDone): it certainly was not deleted.
	ErrNotSent = errors.New("no request was sent")
	// ErrRetried, wrapped with ErrChanged, means the condition failed on
	// a retry, after an attempt whose answer was lost: that attempt may
	// have been the one to act.
	ErrRetried = errors.New("the condition failed on a retry, after an attempt whose answer was lost")
	// ErrUnknown: the request may have been acted on, and what the
	// object is now cannot tell (an attempt whose answer was lost may
	// have deleted or written it, and a writer changed it since). The
	// journal that names it stays, so the next run names what may have
	// gone (SPEC B8 6). It never wraps ErrChanged or ErrNotDone.
	ErrUnknown = errors.New("the outcome is unknown: an attempt whose answer was lost may have acted, and the object changed since")
)

// Backend is what a river gc run needs of the place its artifacts live.
// Implementations are safe for concurrent use.
type Backend interface {
	// List calls fn with every object whose key starts with prefix, in
	// byte order of the keys; a "directory" is not an object.
	List(ctx context.Context, prefix string, fn func(Object) error) error
	// Get returns at most limit+1 bytes of the object's body (so that a
	// caller sees an object larger than limit by its length) and the
	// object as read.
	Get(ctx context.Context, key string, limit int64) ([]byte, Object, error)
	// Put writes data at key under the condition c and returns the
	// object written; ErrChanged when the condition does not hold.
	Put(ctx context.Context, key string, data []byte, c Cond) (Object, error)
	// Delete removes each object if it still carries its Tag and returns
	// one result per object, in order: nil (deleted), ErrNotExist (gone
	// already), ErrChanged (rewritten since listed: kept), ErrNotDone
	// (the request failed, the object is still there: kept), ErrUnknown
	// or another failure (the outcome is unknown).
	Delete(ctx context.Context, objs []Object) []error
}

// PutOwn is Put for a write whose answer may be lost: when the condition
// fails, the object is read back, and one that holds exactly data is this
// write's own (a request the SDK retried after the server had acted on
// it sees its own object). Every key river gc creates is unique to its
// run, and a rewrite that finds its very bytes in place has nothing left
// to do, so equal bytes are success. Other bytes after a condition that
// failed only on a retry (ErrRetried) are ErrUnknown: the lost attempt
// may have written, and a writer changed the object after it.
func PutOwn(ctx context.Context, b Backend, key string, data []byte, c Cond) (Object, error) {
	obj, err := b.Put(ctx, key, data, c)
	if !errors.Is(err, ErrChanged) {
		return obj, err
	}
	got, cur, gerr := b.Get(ctx, key, int64(len(data)))
	if gerr == nil && string(got) == string(data) {
		return cur, nil
	}
	if errors.Is(err, ErrRetried) {
		return obj, fmt.Errorf("put %s: %w", key, ErrUnknown)
	}
	return obj, err
}
