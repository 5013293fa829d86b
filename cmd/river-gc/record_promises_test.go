//go:build linux

package main

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/internal/s3test"
)

// recordPromise is one promise of the record (SPEC I2, B4, B8) and the
// test that shows it on each root: the disk through the real binary, the
// bucket on SeaweedFS (or, where a server must act one way and answer
// another, the fault-injecting fake). A promise one root cannot be asked
// says why instead of a test.
type recordPromise struct {
	promise      string
	disk, bucket func(*testing.T)
	// noDisk, noBucket say why the root has no form of the promise of
	// its own (the test of another row shows it, or it cannot happen).
	noDisk, noBucket string
}

// recordPromises is the one table of the record's promises: the same
// rows for a directory and a bucket, the record itself written once
// (package record) over each root's primitives.
var recordPromises = []recordPromise{
	{
		promise: "SIGKILL at every moment",
		// The disk: a kill at fixed steps before, among and after the
		// deletions in a held directory.
		disk: killedMidHoldNamesExactlyTheGone,
		// The bucket changes only by requests: a kill before each one of
		// a whole run.
		bucket: bucketKilledBeforeEveryRequest,
	},
	{
		promise: "the 20-kill test",
		disk:    sigkillAtAnyMomentLeavesARecord,
		noBucket: "the kill before every request (SIGKILL at every moment) is one killed real run " +
			"per request of a whole run, at least 20 (asserted there)",
	},
	{
		promise: "interrupted exact",
		noDisk:  "SIGKILL at every moment asserts it on disk: every file gone is named, none still there is",
		noBucket: "SIGKILL at every moment asserts it on a bucket: interrupted.removed is exactly " +
			"what is gone and the killed run's own record does not name",
	},
	{
		promise: "a lost answer",
		noDisk: "a system call on a local file system answers the process that made it or the process " +
			"dies (the SIGKILL rows); an unlink acted on and answered otherwise needs a server that " +
			"retransmits (NFS without a reply cache), and strace can only inject an answer instead " +
			"of the call, never after it",
		bucket: bucketLostAnswerIsUnknown,
	},
	{
		promise: "a stolen lock",
		disk:    diskRootReplacedUnderALiveRun,
		bucket:  bucketLostLockStopsTheRun,
	},
}

// TestRecordPromises runs the record's table on both roots.
// Every row on every root runs in parallel with the others: each takes
// its own trees and buckets.
func TestRecordPromises(t *testing.T) {
	t.Parallel()
	for _, p := range recordPromises {
		t.Run(p.promise, func(t *testing.T) {
			t.Parallel()
			for _, root := range []struct {
				name string
				test func(*testing.T)
				why  string
			}{{"disk", p.disk, p.noDisk}, {"bucket", p.bucket, p.noBucket}} {
				t.Run(root.name, func(t *testing.T) {
					t.Parallel()
					if (root.test == nil) == (root.why == "") {
						t.Fatalf("a row has a test or says why it has none, not both or neither")
					}
					if root.test == nil {
						t.Skip(root.why)
					}
					root.test(t)
				})
			}
		})
	}
}

// bucketKilledBeforeEveryRequest (SPEC I2, H4): a --force run on a
// bucket is SIGKILLed before each request of a whole run in turn, the
// request then let through (the engine acts on what its sender sent).
// After each kill, once the killed run's lease is over, the next dry-run
// names in interrupted.removed exactly the objects gone that the killed
// run's own record (when it got that far) does not name, and the next
// --force run finishes the work and leaves neither journal nor lock.
func bucketKilledBeforeEveryRequest(t *testing.T) {
	srv := s3test.Start(t)
	tree := map[string]string{}
	for _, k := range []string{"a/1", "a/2", "a/3", "b/1", "b/2", "c/1", "c/2", "c/3", "c/4", "d/1"} {
		tree[".river/tmp/"+k+".tmp"] = k
	}
	want := slices.Sorted(maps.Keys(tree))
	args := func(root string) []string { return []string{"--force", "--json", "--root", root, "--now", future} }
	// One run to its end counts the requests of a run.
	name := srv.Bucket(t, false)
	upload(t, srv, name, "r/", "", tree)
	count := s3test.Proxy(t, srv)
	if _, stderr, code := runBucketGC(t, withEndpoint(bucketEnv(srv), count.URL), args("s3://"+name+"/r")...); code != 0 {
		t.Fatalf("the whole run: exit %d\n%s", code, stderr)
	}
	total := count.Total()
	if total < 20 {
		t.Fatalf("a whole run makes %d requests; the table counts on 20 kills", total)
	}
	for i := 1; i <= total; i++ {
		name := srv.Bucket(t, false)
		upload(t, srv, name, "r/", "", tree)
		root := "s3://" + name + "/r"
		result := filepath.Join(t.TempDir(), "gc.json")
		cmd := exec.Command(buildBinary(t), append(args(root), "--output-file", result)...)
		pid, dead := make(chan int, 1), make(chan struct{})
		p := s3test.Proxy(t, srv, s3test.Before("", i, func(s3test.Request) {
			syscall.Kill(<-pid, syscall.SIGKILL)
			<-dead
		}).Times(1))
		cmd.Env = withEndpoint(bucketEnv(srv), p.URL)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		pid <- cmd.Process.Pid
		cmd.Wait()
		close(dead)
		awaitHooked(t, p)
		named := map[string]bool{}
		if b, err := os.ReadFile(result); err == nil {
			for _, r := range removedPaths(readRecord(t, b)) {
				named[r] = true
			}
		}
		left := keysIn(t, srv, name, "r/.river/tmp/")
		for j, k := range left {
			left[j] = ".river/tmp/" + k
		}
		if slices.Contains(keysIn(t, srv, name, "r/"), gc.LockKey) {
			srv.ExpireLease(t, name, "r/"+gc.LockKey)
		}
		out, stderr, code := runBucketGC(t, bucketEnv(srv), "--json", "--root", root, "--now", future)
		removed, _ := interruptedOf(t, out)
		for _, k := range want {
			// Every object gone is named by the killed run's record or
			// here; every object named here is gone (a killed run's own
			// record may name one again: package record's residual window).
			gone := !slices.Contains(left, k)
			if here := slices.Contains(removed, k); gone && !named[k] && !here || here && !gone || code != 0 {
				t.Fatalf("kill before request %d of %d: %s gone %v, in the killed run's record %v, in the next dry-run's interrupted %q (exit %d)\n%s",
					i, total, k, gone, named[k], removed, code, stderr)
			}
		}
		if _, stderr, code := runBucketGC(t, bucketEnv(srv), args(root)...); code != 0 {
			t.Fatalf("kill before request %d: the next --force: exit %d\n%s", i, code, stderr)
		}
		for _, dir := range []string{".river/tmp/", gc.JournalDir, gc.LockKey} {
			if rest := keysIn(t, srv, name, "r/"+dir); len(rest) != 0 {
				t.Fatalf("kill before request %d: after the next --force %s%q is left", i, dir, rest)
			}
		}
	}
}

// awaitHooked waits until the proxy has finished the request its hook
// held (the engine acted on it), bounded.
func awaitHooked(t *testing.T, p *s3test.FaultProxy) {
	t.Helper()
	for range 400 {
		if slices.ContainsFunc(p.Requests(), func(r s3test.Request) bool { return r.Fault != "" }) {
			return
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("the proxy never finished the request the kill held")
}

// diskRootReplacedUnderALiveRun (SPEC I2): the disk's lock cannot be
// stolen. While a --force run holds .river/tmp/big, its root directory
// is renamed away and another put at its path, and a second --force run
// on that path runs to its end: the flock is the directory's, so the
// second run locks, journals and deletes in the new directory only; the
// first, resumed, deletes its own files in the directory it opened, and
// each run's record names exactly its own deletions, nothing of either
// tree is gone unnamed and no journal is left.
func diskRootReplacedUnderALiveRun(t *testing.T) {
	bin := buildBinary(t)
	root := memDir(t)
	first := heldTree(t, root, "big", 100)
	r := startHeld(t, bin, root, "big")
	moved := root + ".old"
	if err := os.Rename(root, moved); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(moved) })
	second := heldTree(t, root, "other", 50)
	out, code := runGC(t, bin, append(forceArgs, "--root", root)...)
	if got := removedPaths(readRecord(t, out)); code != 0 || !slices.Equal(got, second) {
		t.Fatalf("the second run: exit %d, removed %d of the %d files of its own tree", code, len(got), len(second))
	}
	code, rec := r.finish(t)
	if got := removedPaths(rec); code != 0 || !slices.Equal(got, first) || rec.Interrupted != nil {
		t.Fatalf("the first run: exit %d, removed %d of its %d files, interrupted %+v", code, len(got), len(first), rec.Interrupted)
	}
	for _, dir := range []string{root, moved} {
		if left := regularFiles(t, dir); len(left) != 0 {
			t.Errorf("%s: %q left (a journal, or a file no run deleted)", dir, left)
		}
	}
}
