//go:build linux

package sweep

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// intendTree writes n files over three directories (one given twice as a
// target) and returns their targets.
func intendTree(t *testing.T, root string, n int) []Target {
	t.Helper()
	var targets []Target
	for i := range n {
		p := fmt.Sprintf("d%d/f%04d", i%3, i)
		write(t, root, p, "x")
		targets = append(targets, target(t, root, p))
	}
	return append(targets, targets[7]) // a path given twice
}

// TestIntendBeforeEveryTarget: with Options.Intend, every target is
// attempted only after the batch holding it was intended, the batches
// come in path order, cover every target once and never split a path
// given twice; for one worker, two and eight.
func TestIntendBeforeEveryTarget(t *testing.T) {
	for _, workers := range []int{1, 2, 8} {
		t.Run(fmt.Sprint("workers=", workers), func(t *testing.T) {
			testWorkers = workers
			t.Cleanup(func() { testWorkers, testHookBeforeResolve = 0, nil })
			root := t.TempDir()
			targets := intendTree(t, root, 300)
			var mu sync.Mutex
			intended := map[string]bool{}
			var order []string
			testHookBeforeResolve = func(p string) {
				mu.Lock()
				defer mu.Unlock()
				if !intended[p] {
					t.Errorf("%s attempted before its batch was intended", p)
				}
			}
			intend := func(batch []Target) error {
				mu.Lock()
				defer mu.Unlock()
				if len(batch) < 16 && len(order)+len(batch) < len(targets) {
					t.Errorf("a batch of %d before the last", len(batch))
				}
				for _, x := range batch {
					intended[x.Path] = true
					order = append(order, x.Path)
				}
				return nil
			}
			rep := del(t, root, targets, Options{Intend: intend, Batch: 16})
			if len(rep.Deleted) != 300 || len(rep.Gone) != 1 || rep.Errors != nil || rep.NotIntended != 0 {
				t.Fatalf("deleted %d, gone %d, errors %v, not intended %d", len(rep.Deleted), len(rep.Gone), rep.Errors, rep.NotIntended)
			}
			if !slices.IsSorted(order) || len(order) != len(targets) {
				t.Errorf("intended %d targets, sorted %v; want %d in path order", len(order), slices.IsSorted(order), len(targets))
			}
		})
	}
}

// TestIntendFailureStopsDeletions: when Intend fails for a batch, no
// target of it or of a later batch is attempted (they are NotIntended),
// Intend is not called again, and the earlier batches are deleted.
func TestIntendFailureStopsDeletions(t *testing.T) {
	for _, workers := range []int{1, 4} {
		t.Run(fmt.Sprint("workers=", workers), func(t *testing.T) {
			testWorkers = workers
			t.Cleanup(func() { testWorkers = 0 })
			root := t.TempDir()
			targets := intendTree(t, root, 100)
			full := errors.New("journal full")
			calls := 0
			intend := func(batch []Target) error {
				calls++
				if calls == 3 {
					return full
				}
				return nil
			}
			rep := del(t, root, targets, Options{Intend: intend, Batch: 20})
			if calls != 3 || rep.IntendErr != full {
				t.Fatalf("%d calls, IntendErr %v; want 3 calls and the failure", calls, rep.IntendErr)
			}
			// Batches 0 and 1 hold the first 40 targets in path order (the
			// repeated path's two occurrences are in one batch: 41).
			done := len(rep.Deleted) + len(rep.Gone)
			if done < 40 || done > 41 || done+rep.NotIntended != len(targets) || rep.NotAttempted != 0 || rep.Errors != nil {
				t.Errorf("deleted %d, gone %d, not intended %d, not attempted %d, errors %v", len(rep.Deleted), len(rep.Gone), rep.NotIntended, rep.NotAttempted, rep.Errors)
			}
		})
	}
}

// TestIntendCancelled: a context cancelled during the deletions stops
// them and the journal writer; every target is still in exactly one of
// the report's parts, and Delete returns (no worker or writer waits for
// a batch that will never come).
func TestIntendCancelled(t *testing.T) {
	testWorkers = 4
	t.Cleanup(func() { testWorkers, testHookBeforeResolve = 0, nil })
	root := t.TempDir()
	targets := intendTree(t, root, 200)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var once sync.Once
	testHookBeforeResolve = func(p string) {
		if p == "d1/f0100" {
			once.Do(cancel)
		}
	}
	fd := openRoot(t, root)
	rep := Delete(ctx, fd, targets, Options{Intend: func([]Target) error { return nil }, Batch: 8})
	handled := len(rep.Deleted) + len(rep.Gone) + len(rep.Errors)
	if rep.NotAttempted == 0 || handled+rep.NotAttempted != len(targets) || rep.NotIntended != 0 {
		t.Errorf("handled %d, not attempted %d, not intended %d, of %d", handled, rep.NotAttempted, rep.NotIntended, len(targets))
	}
}

// TestJournalRunsAhead (decision 278): while the only worker is held at
// the first target of batch 0, the journal writer goes on to batch
// journalAhead — it does not wait for a scheduler to give the workers
// time — and no further, since no later batch has begun; every target is
// still deleted after its batch's intent.
func TestJournalRunsAhead(t *testing.T) {
	testWorkers = 1
	t.Cleanup(func() { testWorkers, testHookBeforeResolve = 0, nil })
	root := t.TempDir()
	targets := intendTree(t, root, 200)
	var mu sync.Mutex
	calls := 0
	reached := make(chan struct{})
	intend := func([]Target) error {
		mu.Lock()
		defer mu.Unlock()
		if calls++; calls == journalAhead+1 {
			close(reached)
		}
		return nil
	}
	var once sync.Once
	testHookBeforeResolve = func(string) {
		once.Do(func() {
			select {
			case <-reached:
			case <-time.After(30 * time.Second):
				t.Errorf("the writer stopped before batch %d", journalAhead)
			}
			mu.Lock()
			defer mu.Unlock()
			if calls != journalAhead+1 {
				t.Errorf("%d batches journaled while batch 0 was held, want %d", calls, journalAhead+1)
			}
		})
	}
	rep := del(t, root, targets, Options{Intend: intend, Batch: 8})
	if len(rep.Deleted) != 200 || len(rep.Gone) != 1 || rep.Errors != nil || rep.NotIntended != 0 {
		t.Fatalf("deleted %d, gone %d, errors %v, not intended %d", len(rep.Deleted), len(rep.Gone), rep.Errors, rep.NotIntended)
	}
	if want := (len(targets) + 7) / 8; calls < want-1 || calls > want {
		t.Errorf("%d Intend calls, want about %d", calls, want)
	}
}
