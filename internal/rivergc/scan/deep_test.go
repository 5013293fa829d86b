//go:build linux

package scan

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
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

// TestScanDeeperThanDescriptorLimit: scan holds a bounded number of
// descriptors (a quarter of the limit), so a tree deeper than the
// descriptor limit is still listed whole.
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
	if len(res.Files) != 2 || len(res.Errors) != 0 {
		t.Fatalf("%d files, errors %v; want both files, no error", len(res.Files), res.Errors)
	}
}

// TestScanReopensClosedDirectories: with a budget of 3 descriptors, a
// comb (every level has the next level and a side directory with a file)
// makes the walker close and later reopen directories; every file is
// still listed exactly once.
func TestScanReopensClosedDirectories(t *testing.T) {
	root := t.TempDir()
	const depth = 40
	var want []string
	p := ".river/tmp"
	for i := range depth {
		p += "/" + strings.Repeat("n", 1+i%3) + "-level"
		for _, side := range []string{"a-side", "z-side"} {
			write(t, root, p+"/"+side+"/f", "x", epoch)
			want = append(want, p+"/"+side+"/f")
		}
	}
	rootfd, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(rootfd)
	w := scanWith(rootfd, skill.ScopeTmp, Options{}, 3, workers())
	res := w.finish()
	slices.Sort(want)
	if got := paths(res.Files); !slices.Equal(got, want) || len(res.Errors) != 0 {
		t.Errorf("files %d (want %d), errors %v", len(got), len(want), res.Errors)
	}
	if w.reopens == 0 {
		t.Errorf("no directory was reopened; the test does not exercise reopen")
	}
}

// TestScanReopenSeesReplacedDirectory: a directory replaced while it was
// closed is not walked again; the walk reports it with ErrChanged.
func TestScanReopenSeesReplacedDirectory(t *testing.T) {
	root := t.TempDir()
	p := ".river/tmp/top"
	for i := range 10 {
		p += "/l" + strings.Repeat("x", i)
		write(t, root, p+"/side/f", "x", epoch)
	}
	rootfd, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(rootfd)
	first := true
	reopenHook = func() {
		if first { // swap .river/tmp/top for a look-alike
			first = false
			top := filepath.Join(root, ".river/tmp/top")
			if err := os.Rename(top, top+"-moved"); err != nil {
				t.Error(err)
			}
			write(t, root, ".river/tmp/top/l/side/intruder", "x", epoch)
		}
	}
	defer func() { reopenHook = nil }()
	res := scanWith(rootfd, skill.ScopeTmp, Options{}, 2, workers()).finish()
	if first {
		t.Fatal("no reopen happened")
	}
	for _, f := range res.Files {
		if strings.HasSuffix(f.Path, "/intruder") {
			t.Errorf("walked into the replacement: %s", f.Path)
		}
	}
	if len(res.Errors) != 1 || res.Errors[0].Path != ".river/tmp/top" || !errors.Is(res.Errors[0], fserr.ErrChanged) {
		t.Errorf("errors %v, want one ErrChanged at .river/tmp/top", res.Errors)
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
