// Package backendtest is the one test suite every backend.Backend passes
// (restic's backend test suite is the model): listing order, bounded
// reads, conditional writes and deletes, and the lock, journal and canary
// built on them. A backend proves itself by passing Run.
package backendtest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/backend"
	"github.com/plangate-gc/plangate-gc/internal/backend/record"
)

// Run runs the suite over fresh, empty backends made by open.
func Run(t *testing.T, open func(t *testing.T) backend.Backend) {
	for _, c := range []struct {
		name string
		test func(t *testing.T, b backend.Backend)
	}{
		{"ListInKeyOrder", testList},
		{"GetIsBounded", testGet},
		{"PutIfAbsent", testPutIfAbsent},
		{"PutIfMatch", testPutIfMatch},
		{"DeleteIsConditional", testDelete},
		{"LockIsExclusive", testLock},
		{"JournalNamesWhatWasDeleted", testJournal},
		{"ConditionsAreHonoured", testCanary},
		{"CanaryCatchesIgnoredConditions", testCanaryRefuses},
	} {
		t.Run(c.name, func(t *testing.T) { c.test(t, open(t)) })
	}
}

var ctx = context.Background()

// put creates key with body and returns the object.
func put(t *testing.T, b backend.Backend, key, body string) backend.Object {
	t.Helper()
	o, err := b.Put(ctx, key, []byte(body), backend.Cond{IfAbsent: true})
	if err != nil {
		t.Fatalf("put %s: %v", key, err)
	}
	return o
}

func list(t *testing.T, b backend.Backend, prefix string) []backend.Object {
	t.Helper()
	var got []backend.Object
	if err := b.List(ctx, prefix, func(o backend.Object) error { got = append(got, o); return nil }); err != nil {
		t.Fatalf("list %s: %v", prefix, err)
	}
	return got
}

func keys(objs []backend.Object) []string {
	ks := make([]string, len(objs))
	for i, o := range objs {
		ks[i] = o.Key
	}
	return ks
}

func testList(t *testing.T, b backend.Backend) {
	want := []string{"artifacts/evals/a/b.json", "artifacts/evals/a/c", "artifacts/evals/a-b", "artifacts/evals/é"}
	for _, k := range []string{want[3], want[1], want[0], want[2], "artifacts/other"} {
		put(t, b, k, "x"+k)
	}
	got := list(t, b, "artifacts/evals/")
	if !slices.Equal(keys(got), slices.Sorted(slices.Values(want))) {
		t.Fatalf("listed %q, want %q in byte order", keys(got), want)
	}
	for _, o := range got {
		if o.Size != int64(len("x"+o.Key)) || o.Tag == "" || o.ModTimeNs == 0 {
			t.Errorf("%s: size %d tag %q mtime %d", o.Key, o.Size, o.Tag, o.ModTimeNs)
		}
	}
	if n := len(list(t, b, "nothing/")); n != 0 {
		t.Errorf("an empty prefix listed %d objects", n)
	}
}

func testGet(t *testing.T, b backend.Backend) {
	o := put(t, b, ".river/memory/a.json", "0123456789")
	data, got, err := b.Get(ctx, o.Key, 4)
	if err != nil || string(data) != "01234" || got.Tag != o.Tag || got.Size != 10 {
		t.Errorf("Get(limit 4) = %q, %+v, %v; want 5 bytes, the tag put and size 10", data, got, err)
	}
	put(t, b, ".river/memory/empty", "")
	if data, got, err := b.Get(ctx, ".river/memory/empty", 4); err != nil || len(data) != 0 || got.Tag == "" {
		t.Errorf("Get(empty) = %q, %+v, %v", data, got, err)
	}
	if _, _, err := b.Get(ctx, ".river/memory/none", 4); !errors.Is(err, backend.ErrNotExist) {
		t.Errorf("Get(missing) = %v, want ErrNotExist", err)
	}
}

func testPutIfAbsent(t *testing.T, b backend.Backend) {
	put(t, b, "k", "one")
	if _, err := b.Put(ctx, "k", []byte("two"), backend.Cond{IfAbsent: true}); !errors.Is(err, backend.ErrChanged) {
		t.Errorf("a second create = %v, want ErrChanged", err)
	}
	if data, _, _ := b.Get(ctx, "k", 100); string(data) != "one" {
		t.Errorf("the object is %q after a refused create, want one", data)
	}
}

func testPutIfMatch(t *testing.T, b backend.Backend) {
	o := put(t, b, "k", "one")
	o2, err := b.Put(ctx, "k", []byte("two!"), backend.Cond{IfMatch: o.Tag})
	if err != nil || o2.Tag == o.Tag {
		t.Fatalf("replace on the tag read = %+v, %v", o2, err)
	}
	if _, err := b.Put(ctx, "k", []byte("three"), backend.Cond{IfMatch: o.Tag}); !errors.Is(err, backend.ErrChanged) {
		t.Errorf("replace on a stale tag = %v, want ErrChanged", err)
	}
	if data, _, _ := b.Get(ctx, "k", 100); string(data) != "two!" {
		t.Errorf("the object is %q, want two!", data)
	}
}

func testDelete(t *testing.T, b backend.Backend) {
	var objs []backend.Object
	for i := range 5 {
		objs = append(objs, put(t, b, fmt.Sprintf(".river/tmp/%d", i), fmt.Sprint("body ", i)))
	}
	// 1 is rewritten after it was listed; 2 is gone already.
	if _, err := b.Put(ctx, objs[1].Key, []byte("newer"), backend.Cond{IfMatch: objs[1].Tag}); err != nil {
		t.Fatal(err)
	}
	if err := b.Delete(ctx, objs[2:3])[0]; err != nil {
		t.Fatal(err)
	}
	errs := b.Delete(ctx, objs)
	want := []error{nil, backend.ErrChanged, backend.ErrNotExist, nil, nil}
	for i, err := range errs {
		if (want[i] == nil) != (err == nil) || (want[i] != nil && !errors.Is(err, want[i])) {
			t.Errorf("delete %s = %v, want %v", objs[i].Key, err, want[i])
		}
	}
	if got := keys(list(t, b, ".river/tmp/")); !slices.Equal(got, []string{".river/tmp/1"}) {
		t.Errorf("left %q, want only the rewritten object", got)
	}
}

func testLock(t *testing.T, b backend.Backend) {
	now := time.Unix(2_000_000_000, 0)
	l, err := record.Acquire(ctx, b, "lock", "run-a", now, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	_, err = record.Acquire(ctx, b, "lock", "run-b", now.Add(30*time.Second), time.Minute)
	var le *record.LockedError
	if !errors.As(err, &le) || le.Holder != "run-a" || !errors.Is(err, record.ErrLocked) {
		t.Fatalf("a second run locked a held lock: %v", err)
	}
	if held, err := held(b, "lock", now); !held || err != nil {
		t.Errorf("Held = %v, %v on a live lease", held, err)
	}
	// The lease runs out: one run takes it over; the stale holder's
	// renewal then fails, and its release leaves the new lock alone.
	l2, err := record.Acquire(ctx, b, "lock", "run-b", now.Add(2*time.Minute), time.Minute)
	if err != nil {
		t.Fatalf("a stale lease was not taken over: %v", err)
	}
	if l2.Ended() != "run-a" {
		t.Errorf("the takeover names %q as ended, want run-a", l2.Ended())
	}
	if err := l.Prove(ctx, now.Add(10*time.Second)); !errors.Is(err, record.ErrLockLost) {
		t.Errorf("a lock taken over is lost, however fresh its lease: %v", err)
	}
	if err := l.Prove(ctx, now.Add(2*time.Minute)); !errors.Is(err, record.ErrLockLost) {
		t.Errorf("the stale holder renewed a lock it lost: %v", err)
	}
	if err := l2.Prove(ctx, now.Add(2*time.Minute+time.Second)); err != nil {
		t.Errorf("the holder's own fresh lock: %v", err)
	}
	l.Release(ctx) //nolint:errcheck // its own object is gone: nothing to release
	if held, _ := held(b, "lock", now.Add(2*time.Minute)); !held {
		t.Errorf("the stale holder's release removed the new holder's lock")
	}
	if err := l2.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if held, _ := held(b, "lock", now); held {
		t.Errorf("the lock is held after its release")
	}
	// A lock object deleted by anyone (an operator, a sync tool) is lost.
	l3, err := record.Acquire(ctx, b, "lock", "run-c", now, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	_, obj, err := b.Get(ctx, "lock", 0)
	if err != nil || b.Delete(ctx, []backend.Object{obj})[0] != nil {
		t.Fatalf("deleting the lock object: %v", err)
	}
	if err := l3.Prove(ctx, now.Add(time.Second)); !errors.Is(err, record.ErrLockLost) {
		t.Errorf("a deleted lock is not lost: %v", err)
	}
}

func testJournal(t *testing.T, b backend.Backend) {
	a, c := put(t, b, ".river/tmp/a", "a"), put(t, b, ".river/tmp/c", "c")
	store := put(t, b, ".river/memory/index.json", "{}")
	j := record.NewWriter(record.NewObjects(b, "j/", "run1"), nil)
	if err := j.Intend(ctx, []record.Intent{{Op: "delete", Key: a.Key, Tag: a.Tag}, {Op: "delete", Key: c.Key, Tag: c.Tag}}); err != nil {
		t.Fatal(err)
	}
	if err := j.Intend(ctx, []record.Intent{{Op: "rewrite", Key: store.Key, Tag: store.Tag}}); err != nil {
		t.Fatal(err)
	}
	b.Delete(ctx, []backend.Object{a}) // the killed run deleted a, not c
	if _, err := b.Put(ctx, store.Key, []byte("[]"), backend.Cond{IfMatch: store.Tag}); err != nil {
		t.Fatal(err)
	}
	journals := record.NewObjects(b, "j/", "")
	rec, err := record.Recover(ctx, journals, nil, nil, time.Now())
	if err != nil || rec == nil {
		t.Fatalf("Recover = %v, %v", rec, err)
	}
	if !slices.Equal(rec.Removed, []string{a.Key}) || !slices.Equal(rec.Rewritten, []string{store.Key}) || rec.Finished || len(rec.Units) != 2 {
		t.Errorf("recovered %+v; want removed [%s], rewritten [%s], unfinished, 2 objects", rec, a.Key, store.Key)
	}
	if err := record.Discard(ctx, journals, rec, nil); err != nil {
		t.Fatal(err)
	}
	if rec, err := record.Recover(ctx, journals, nil, nil, time.Now()); rec != nil || err != nil {
		t.Errorf("after Remove: %+v, %v", rec, err)
	}
	testLiveJournal(t, b, c)
}

// testLiveJournal: a guarded journal names its lease; while it lasts
// and no "done" is written the run is live, its journal left alone,
// unless the run is named as ended (its stale lease taken over); and a
// batch of long keys is cut into objects recovery reads whole.
func testLiveJournal(t *testing.T, b backend.Backend, c backend.Object) {
	now := time.Now()
	l, err := record.Acquire(ctx, b, "jlock", "run2", now, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release(ctx) //nolint:errcheck // the test's own lock
	journals := record.NewObjects(b, "j/", "run2")
	j := record.NewWriter(journals, l)
	long := make([]record.Intent, 2000)
	for i := range long {
		long[i] = record.Intent{Op: "delete", Key: fmt.Sprintf("%s\x01%04d", strings.Repeat("\x02", 900), i), Tag: `"t"`}
	}
	if err := j.Intend(ctx, append(long, record.Intent{Op: "delete", Key: c.Key, Tag: `"not c's tag"`})); err != nil {
		t.Fatal(err)
	}
	if len(j.Units()) < 2 {
		t.Errorf("%d journal objects for 7 MB of intents; want each bounded in bytes", len(j.Units()))
	}
	if rec, err := record.Recover(ctx, journals, nil, nil, now); rec != nil || err != nil {
		t.Errorf("a live run's journal was recovered: %+v, %v", rec, err)
	}
	rec, err := record.Recover(ctx, journals, nil, endedProbe("run2"), now)
	if err != nil || rec == nil || len(rec.Unreadable) != 0 || len(rec.Removed) != len(long)+1 {
		t.Fatalf("an ended run's journal: %v, %+v", err, rec)
	}
	if err := record.Discard(ctx, journals, rec, nil); err != nil {
		t.Fatal(err)
	}
}

// held reports whether a live lease is held at key (record.LeaseProbe).
func held(b backend.Backend, key string, now time.Time) (bool, error) {
	live, _, err := record.LeaseProbe{B: b, Key: key}.Probe(ctx, now)
	return live, err
}

// endedProbe names one run as provably over (its stale lease taken
// over), as the lock that took it over does.
type endedProbe string

func (e endedProbe) Probe(context.Context, time.Time) (bool, string, error) {
	return false, string(e), nil
}

func testCanary(t *testing.T, b backend.Backend) {
	if err := backend.ProveConditions(ctx, b, "canary/", 10); err != nil {
		t.Fatalf("the backend does not prove its conditions: %v", err)
	}
	if n := len(list(t, b, "canary")); n != 0 {
		t.Errorf("the canary left %d objects", n)
	}
}

// ignoring is a backend that accepts every condition and honours none:
// what a server that parses If-Match and drops it looks like.
type ignoring struct {
	backend.Backend
	what string
}

func (i ignoring) Put(ctx context.Context, key string, data []byte, c backend.Cond) (backend.Object, error) {
	if i.what == "put" && (c.IfAbsent || c.IfMatch != "") {
		// Overwrite whatever is there: find its tag and replace on it.
		if _, cur, err := i.Backend.Get(ctx, key, 0); err == nil {
			return i.Backend.Put(ctx, key, data, backend.Cond{IfMatch: cur.Tag})
		}
	}
	return i.Backend.Put(ctx, key, data, c)
}

func (i ignoring) Delete(ctx context.Context, objs []backend.Object) []error {
	if i.what == "delete" {
		for k, o := range objs {
			if _, cur, err := i.Backend.Get(ctx, o.Key, 0); err == nil {
				objs[k].Tag = cur.Tag
			}
		}
	}
	return i.Backend.Delete(ctx, objs)
}

func testCanaryRefuses(t *testing.T, b backend.Backend) {
	for what, want := range map[string]string{"put": backend.IgnoredIfNoneMatch, "delete": backend.IgnoredIfMatchDel} {
		var ce *backend.ConditionError
		if err := backend.ProveConditions(ctx, ignoring{b, what}, "canary-"+what+"/", 10); !errors.As(err, &ce) || !strings.HasPrefix(ce.What, want) {
			t.Errorf("a backend ignoring %s conditions: %v, want %q", what, err, want)
		}
	}
}
