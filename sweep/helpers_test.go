package sweep

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/testtree"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/asnobody"
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
		return Delete(a.Root, a.Targets, Options{})
	})
	os.Exit(m.Run())
}

// runAsNobody deletes targets below root as uid 65534.
func runAsNobody(t *testing.T, base, root string, targets []Target) Report {
	t.Helper()
	var rep Report
	asnobody.Run(t, base, childArgs{Root: root, Targets: targets}, &rep)
	return rep
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
	return Target{Path: rel, Dev: st.Dev, Ino: st.Ino, Size: st.Size, MtimeNs: st.Mtim.Sec*1e9 + st.Mtim.Nsec}
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
			used := map[string]int{}
			testHookResolver = func(via string) { used[via]++ }
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
