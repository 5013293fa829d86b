package faulttest

import (
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/s3test"
)

// killedRun starts river-gc --force through a proxy whose hook, at the
// first request of kind naming a key below keyPrefix, SIGKILLs river-gc
// and waits for it to die before letting the request through (the engine
// then acts on a request whose sender is gone). It returns the proxy
// once river-gc is dead.
func killedRun(t *testing.T, f *fixture, kind s3test.Kind, keyPrefix string) *s3test.FaultProxy {
	t.Helper()
	cmd, _, stderr := f.command("", f.gcArgs("--force")...)
	pid := make(chan int, 1)
	dead := make(chan struct{})
	killed := false
	kill := s3test.Before(kind, 0, func(s3test.Request) {
		syscall.Kill(<-pid, syscall.SIGKILL)
		killed = true
		<-dead
	}).OnKeyPrefix(keyPrefix).Times(1)
	p := s3test.Proxy(t, f.srv, kill)
	cmd.Env = append(cmd.Env, "AWS_ENDPOINT_URL_S3="+p.URL)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid <- cmd.Process.Pid
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		close(dead)
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
			t.Fatalf("river-gc ended without the kill (%v, killed %v)\n%s", err, killed, stderr)
		}
	case <-time.After(3 * time.Minute):
		cmd.Process.Kill()
		close(dead)
		t.Fatalf("river-gc still running after 3 minutes\n%s", stderr)
	}
	// The hook's request is forwarded once the hook returns: wait
	// (bounded) until the proxy has logged it.
	for i := 0; i < 200 && !logged(p, kind, keyPrefix); i++ {
		time.Sleep(25 * time.Millisecond)
	}
	return p
}

// logged reports whether the proxy finished a request of kind naming a
// key below keyPrefix.
func logged(p *s3test.FaultProxy, kind s3test.Kind, keyPrefix string) bool {
	for _, r := range p.Requests() {
		if r.Kind == kind && r.Fault != "" {
			return true
		}
	}
	return false
}

// TestKilledDuringABatchIsNamedByTheNextRun: river-gc is SIGKILLed while
// its delete batch is on the wire; the engine deletes the batch. The next
// run's interrupted names exactly what the engine deleted, and every
// other object is still there.
func TestKilledDuringABatchIsNamedByTheNextRun(t *testing.T) {
	f := newFixture(t)
	p := killedRun(t, f, s3test.KindDeleteBatch, prefix+".river/tmp/")
	deleted := engineDeleted(t, p)
	if len(deleted) == 0 {
		t.Fatalf("the engine deleted nothing of the killed run's batch: the test tests nothing\n%v", p.Requests())
	}
	// While the killed run's lease lasts (15 minutes), a --force run
	// cannot know it is dead: it refuses and changes nothing.
	if _, stderr, code := f.gc(t, f.srv.Endpoint, f.gcArgs("--force")...); code != 1 {
		t.Errorf("--force under the killed run's live lease: exit %d, want 1\n%s", code, stderr)
	}
	if got := f.keys(t); !slices.Equal(got, without(keysOf(f.tree), deleted...)) {
		t.Fatalf("a run under a live lease changed the bucket: %v", got)
	}
	expireLease(t, f) // the 15 minutes pass
	next, stderr, code := f.gc(t, f.srv.Endpoint, f.gcArgs("--dry-run")...)
	if code != 0 {
		t.Fatalf("dry-run after the kill: exit %d\n%s", code, stderr)
	}
	if next.Interrupted == nil {
		t.Fatalf("the next run reports no interrupted run; the engine deleted %v\n%s\nkeys left: %v", deleted, stderr, f.keysAll(t))
	}
	if got := slices.Sorted(slices.Values(next.Interrupted.Removed)); !slices.Equal(got, deleted) {
		t.Errorf("interrupted.removed = %v\nthe engine deleted %v", got, deleted)
	}
	if left := f.keys(t); !slices.Equal(left, without(keysOf(f.tree), deleted...)) {
		t.Errorf("left: %v", left)
	}
	// The next --force run takes the stale lease over, names the killed
	// run's deletions too, and finishes the work.
	r, stderr, code := f.gc(t, f.srv.Endpoint, f.gcArgs("--force")...)
	if code != 0 || r.Interrupted == nil || !slices.Equal(slices.Sorted(slices.Values(r.Interrupted.Removed)), deleted) {
		t.Errorf("--force after the lease ran out: exit %d, interrupted %+v\n%s", code, r.Interrupted, stderr)
	}
	if got := union(r.removed(), deleted); !slices.Equal(got, old(f.tree)) {
		t.Errorf("removed by both runs: %v\nwant %v", got, old(f.tree))
	}
}

// expireLease makes the killed run's lock look as it does once its 15
// minutes have passed (s3test.Server.ExpireLease).
func expireLease(t *testing.T, f *fixture) {
	t.Helper()
	f.srv.ExpireLease(t, f.bucket, prefix+".river/gc-lock")
}

// TestKilledAfterItsJournalDeletesNothingUnnamed: killed when its intent
// journal is on the wire (the engine stores it), river-gc has deleted
// nothing; the next run names no deletion and the tree is whole.
func TestKilledAfterItsJournalDeletesNothingUnnamed(t *testing.T) {
	f := newFixture(t)
	p := killedRun(t, f, s3test.KindPut, prefix+".river/gc-journal/")
	if deleted := engineDeleted(t, p); len(deleted) > 0 {
		t.Errorf("deleted %v before its journal was acknowledged", deleted)
	}
	expireLease(t, f)
	next, stderr, code := f.gc(t, f.srv.Endpoint, f.gcArgs("--dry-run")...)
	if code != 0 {
		t.Fatalf("dry-run after the kill: exit %d\n%s", code, stderr)
	}
	if next.Interrupted != nil && len(next.Interrupted.Removed) > 0 {
		t.Errorf("interrupted.removed = %v, but nothing was deleted", next.Interrupted.Removed)
	}
	if left := f.keys(t); !slices.Equal(left, keysOf(f.tree)) {
		t.Errorf("left: %v, want the whole tree", left)
	}
}
