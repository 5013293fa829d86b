package scan

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/fserr"
	"github.com/plangate-gc/plangate-gc/skill"
)

// deepName is a 200-byte directory name.
var deepName = strings.Repeat("d", 199) + "x"

// buildDeep creates .river/tmp/<deepName>/... depth levels deep below
// root, with one file "leaf" at the bottom and one "top" in .river/tmp.
// Paths that deep exceed PATH_MAX, so it walks down with *at calls.
func buildDeep(t testing.TB, root string, depth int) {
	t.Helper()
	write(t, root, ".river/tmp/top", "x", epoch)
	fd, err := unix.Open(root+"/.river/tmp", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	for range depth {
		if err := unix.Mkdirat(fd, deepName, 0o755); err != nil {
			t.Fatal(err)
		}
		next, err := unix.Openat(fd, deepName, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		unix.Close(fd)
		if err != nil {
			t.Fatal(err)
		}
		fd = next
	}
	leaf, err := unix.Openat(fd, "leaf", unix.O_WRONLY|unix.O_CREAT|unix.O_CLOEXEC, 0o644)
	unix.Close(fd)
	if err != nil {
		t.Fatal(err)
	}
	unix.Close(leaf)
}

// deepDepth is as deep as the descriptor limit comfortably allows, at
// most 1500 levels.
func deepDepth(t testing.TB) int {
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	d := min(1500, int(lim.Cur)-200)
	if d < 200 {
		t.Skipf("descriptor limit %d too low for a deep tree", lim.Cur)
	}
	return d
}

// TestScanDeepTreeMemory: the walker's memory is O(files + depth). The
// old walker kept every level's path string, depth²·201/2 bytes (226 MB at
// 1500 levels); the bound here is a small multiple of the longest path.
func TestScanDeepTreeMemory(t *testing.T) {
	root := t.TempDir()
	depth := deepDepth(t)
	buildDeep(t, root, depth)
	leafLen := len(".river/tmp") + depth*(len(deepName)+1) + len("/leaf")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res := scanRoot(t, root, skill.ScopeTmp, Options{Metadata: true})
	runtime.ReadMemStats(&after)
	if len(res.Files) != 2 || len(res.Errors) != 0 || len(res.Files[0].Path) != leafLen {
		t.Fatalf("files %d errors %+v", len(res.Files), res.Errors)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	bound := uint64(16*leafLen + 1<<20) // path buffer, name arena and their growth
	t.Logf("depth %d, longest path %d bytes, allocated %d bytes", depth, leafLen, alloc)
	if alloc > bound {
		t.Errorf("allocated %d bytes for depth %d, want at most %d (O(depth))", alloc, depth, bound)
	}
}

// TestScanDeeperThanDescriptorLimit: one open descriptor per level caps
// the depth at the descriptor limit; beyond it scan reports a typed
// EMFILE error on the first directory it cannot open and still lists
// everything above it.
func TestScanDeeperThanDescriptorLimit(t *testing.T) {
	root := t.TempDir()
	buildDeep(t, root, 120)
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	rootfd, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(rootfd)
	low := lim
	low.Cur = 64
	if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &low); err != nil {
		t.Skipf("cannot lower the descriptor limit: %v", err)
	}
	res := Scan(rootfd, skill.ScopeTmp, Options{})
	if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	if got := paths(res.Files); len(got) != 1 || got[0] != ".river/tmp/top" {
		t.Errorf("files %q", got)
	}
	if len(res.Errors) != 1 || res.Errors[0].Op != fserr.OpOpenDir || !errors.Is(res.Errors[0], unix.EMFILE) {
		t.Fatalf("errors %+v, want one open-dir EMFILE", res.Errors)
	}
	if !strings.HasPrefix(res.Errors[0].Path, ".river/tmp/"+deepName+"/") {
		t.Errorf("error path %.80q...", res.Errors[0].Path)
	}
}

// BenchmarkScanDeep scans the deep tree of TestScanDeepTreeMemory.
func BenchmarkScanDeep(b *testing.B) {
	root := b.TempDir()
	buildDeep(b, root, deepDepth(b))
	b.ReportAllocs()
	for b.Loop() {
		if res := scanRoot(b, root, skill.ScopeTmp, Options{}); len(res.Files) != 2 {
			b.Fatalf("files %d", len(res.Files))
		}
	}
}
