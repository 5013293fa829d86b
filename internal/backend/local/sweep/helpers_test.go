//go:build linux

package sweep

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/testtree"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/asnobody"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
)

// childArgs is what the unprivileged child deletes.
type childArgs struct {
	Root    string
	Targets []Target
}

// TestMain lets the permission test run Delete as an unprivileged user
// (internal/asnobody).
func TestMain(m *testing.M) {
	asnobody.Child(func(arg json.RawMessage) any {
		var a childArgs
		if err := json.Unmarshal(arg, &a); err != nil {
			return err.Error()
		}
		fd, err := unix.Open(a.Root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return err.Error()
		}
		defer unix.Close(fd)
		return toChildReport(Delete(context.Background(), fd, a.Targets, Options{}))
	})
	os.Exit(m.Run())
}

// childReport is a Report that survives JSON: each error as path, op and
// errno number (0 when the cause is not an errno).
type childReport struct {
	Deleted []string
	Errors  []childError
}

type childError struct {
	Path  string
	Op    fserr.Op
	Errno unix.Errno
}

func toChildReport(rep Report) childReport {
	c := childReport{Deleted: rep.Deleted}
	for _, e := range rep.Errors {
		var errno unix.Errno
		errors.As(e, &errno)
		c.Errors = append(c.Errors, childError{Path: e.Path, Op: e.Op, Errno: errno})
	}
	return c
}

// runAsNobody deletes targets below root as uid 65534.
func runAsNobody(t *testing.T, base, root string, targets []Target) childReport {
	t.Helper()
	var rep childReport
	asnobody.Run(t, base, childArgs{Root: root, Targets: targets}, &rep)
	return rep
}

// openRoot opens root the way river gc does (O_PATH) for the test's
// lifetime.
func openRoot(t testing.TB, root string) int {
	t.Helper()
	fd, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	return fd
}

// del runs Delete on root with a background context.
func del(t testing.TB, root string, targets []Target, opts Options) Report {
	t.Helper()
	return Delete(context.Background(), openRoot(t, root), targets, opts)
}

var epoch = time.Unix(1_600_000_000, 123_456_789)

// write creates root/rel with content and the fixed epoch mtime.
func write(t testing.TB, root, rel, content string) {
	t.Helper()
	testtree.Write(t, root, rel, content, epoch)
}

// target records rel's identity the way scan does.
func target(t testing.TB, root, rel string) Target {
	t.Helper()
	var st unix.Stat_t
	if err := unix.Lstat(filepath.Join(root, rel), &st); err != nil {
		t.Fatal(err)
	}
	return Target{Path: rel, Dev: st.Dev, Ino: st.Ino, Size: st.Size,
		MtimeNs: st.Mtim.Sec*1e9 + st.Mtim.Nsec, CtimeNs: st.Ctim.Sec*1e9 + st.Ctim.Nsec}
}

func exists(root, rel string) bool {
	_, err := os.Lstat(filepath.Join(root, rel))
	return err == nil
}

// withResolver runs f once with openat2 (skipped when the kernel or a
// seccomp filter refuses it) and once with the forced openat chain, and
// checks that the intended resolver was the one used.
func withResolver(t *testing.T, f func(t *testing.T)) {
	for _, mode := range []string{"openat2", "chain"} {
		t.Run(mode, func(t *testing.T) {
			if mode == "openat2" && !openat2Works(t) {
				t.Skip("openat2 unavailable here")
			}
			disableOpenat2 = mode == "chain"
			var mu sync.Mutex // workers resolve concurrently
			used := map[string]int{}
			testHookResolver = func(via string) { mu.Lock(); used[via]++; mu.Unlock() }
			t.Cleanup(func() { disableOpenat2, testHookResolver, testHookBeforeResolve = false, nil, nil })
			f(t)
			for via := range used {
				if via != mode {
					t.Errorf("resolver %q used in %s mode (%v)", via, mode, used)
				}
			}
		})
	}
}

func openat2Works(t *testing.T) bool {
	fd, err := unix.Openat2(unix.AT_FDCWD, t.TempDir(), &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_NO_SYMLINKS,
	})
	if err != nil {
		return false
	}
	unix.Close(fd)
	return true
}

// sequential makes Delete use one worker for the rest of the test, so
// targets are handled strictly in path order on the test's goroutine
// (hooks that rely on that order, or count calls, need it).
func sequential(t *testing.T) {
	testWorkers = 1
	t.Cleanup(func() { testWorkers = 0 })
}
