//go:build linux

package scan

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/fserr"
	"github.com/plangate-gc/plangate-gc/skill"
)

// buildMixed writes a tree that exercises everything a worker records:
// directories bigger than one batch, metadata that is usable, invalid or
// ambiguous, leftovers, names that are not UTF-8, symlinks and FIFOs.
func buildMixed(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for d := range 3 {
		for i := range batchNames + 37 { // more than one batch per directory
			rel := fmt.Sprintf(".river/memory/topic-%d/entry-%04d.json", d, i)
			body := fmt.Sprintf(`{"metadata":{"createdAt":"2025-%02d-01T00:00:00Z"}}`, 1+i%12)
			switch i % 7 {
			case 1:
				body = `{"timestamp":1}`
			case 2:
				body = `not json`
			case 3:
				body = `{"timestamp":"2025-01-01T00:00:00Z","timestamp":"2025-01-02T00:00:00Z"}`
			}
			write(t, root, rel, body, epoch.Add(time.Duration(i)*time.Hour))
		}
		write(t, root, fmt.Sprintf(".river/memory/topic-%d/notes.md", d), "x", epoch)
		write(t, root, fmt.Sprintf(".river/memory/topic-%d/%sold.json", d, LeftoverPrefix), "{}", epoch)
		symlink(t, "/etc/passwd", root, fmt.Sprintf(".river/memory/topic-%d/link.json", d))
		if err := syscall.Mkfifo(filepath.Join(root, fmt.Sprintf(".river/memory/topic-%d/pipe.json", d)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(t, root, ".river/memory/deep/a/b/c/d.json", `{"timestamp":"2024-05-05T05:05:05Z"}`, epoch)
	write(t, root, ".river/memory/bad-\xff.json", "{}", epoch)
	mkdir(t, root, ".river/memory/empty")
	return root
}

// TestParallelScanMatchesInline: the result does not depend on how many
// workers examine the files, nor on their scheduling (run several times).
func TestParallelScanMatchesInline(t *testing.T) {
	root := buildMixed(t)
	fd, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	for _, meta := range []bool{true, false} {
		opts := Options{Metadata: meta}
		want := scanWith(fd, skill.ScopeMemory, opts, maxBudget, 1).finish()
		if len(want.Files) < 3*batchNames || len(want.Leftovers) != 3 || len(want.Errors) != 1 {
			t.Fatalf("metadata=%v: inline scan found %d files, %d leftovers, errors %v; the tree is not what the test needs",
				meta, len(want.Files), len(want.Leftovers), want.Errors)
		}
		for _, n := range []int{2, 3, 8} {
			for range 3 {
				got := scanWith(fd, skill.ScopeMemory, opts, maxBudget, n).finish()
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("metadata=%v, %d workers: result differs from the inline scan", meta, n)
				}
			}
		}
	}
}

// TestParallelScanClosesDescriptors: every directory descriptor shared
// with a worker is closed by the end of the scan, also when the walker
// evicts directories to stay within its budget.
func TestParallelScanClosesDescriptors(t *testing.T) {
	root := buildMixed(t)
	p := ".river/memory/deep"
	for i := range 30 {
		p += fmt.Sprintf("/l%d", i)
		write(t, root, p+"/f.json", "{}", epoch)
	}
	fd, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	before := openDescriptors(t)
	for _, budget := range []int{2, maxBudget} {
		w := scanWith(fd, skill.ScopeMemory, Options{Metadata: true}, budget, 2)
		res := w.finish()
		if len(res.Files) == 0 || w.pool == nil {
			t.Fatalf("budget %d: %d files, pool %v; the workers were not used", budget, len(res.Files), w.pool != nil)
		}
		if after := openDescriptors(t); after != before {
			t.Errorf("budget %d: %d descriptors open after the scan, %d before", budget, after, before)
		}
	}
}

func openDescriptors(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	return len(ents)
}

// TestExamineReplacedEntry: a name getdents reported as a regular file
// but that is something else by the time a worker looks at it is noted,
// never followed or descended, and nothing blocks (a *.json name is opened
// with O_NONBLOCK before it is described, so a FIFO swapped in is opened
// but never read).
func TestExamineReplacedEntry(t *testing.T) {
	root := t.TempDir()
	mkdir(t, root, "d/sub")
	mkdir(t, root, "d/sub.json")
	symlink(t, "/etc/passwd", root, "d/link.json")
	if err := syscall.Mkfifo(filepath.Join(root, "d/pipe.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	dirfd, err := unix.Open(filepath.Join(root, "d"), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(dirfd)
	s := &sink{opts: Options{Metadata: true}}
	names := []byte("sub\x00sub.json\x00link.json\x00pipe.json\x00gone.json\x00")
	done := make(chan struct{})
	go func() { examineAll(s, dirfd, "d", names); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("examine blocked (opened the FIFO?)")
	}
	want := []Note{
		{Path: "d/sub", Kind: NoteChanged, FileKind: fserr.KindOf(unix.S_IFDIR)},
		{Path: "d/sub.json", Kind: NoteChanged, FileKind: fserr.KindOf(unix.S_IFDIR)},
		{Path: "d/link.json", Kind: NoteSymlink, FileKind: fserr.KindOf(unix.S_IFLNK)},
		{Path: "d/pipe.json", Kind: NoteSpecial, FileKind: fserr.KindOf(unix.S_IFIFO)},
	}
	if !slices.Equal(s.notes, want) || s.files.n != 0 || len(s.errs) != 0 {
		t.Errorf("notes %+v, %d files, errors %v; want notes %+v only", s.notes, s.files.n, s.errs, want)
	}
}

// TestMetadataFailureKeepsTheFile: a *.json file whose metadata could not
// be read for want of a resource (EMFILE, ENOMEM, EIO) is an error and is
// not listed, so it is neither judged by its mtime nor deleted; a file it
// may not read (EACCES) is judged by its mtime, with a note saying why.
func TestMetadataFailureKeepsTheFile(t *testing.T) {
	stx := unix.Statx_t{Mode: unix.S_IFREG | 0o644, Size: 2}
	for _, tt := range []struct {
		err  error
		kept bool // listed as a File
	}{
		{unix.EMFILE, false}, {unix.ENFILE, false}, {unix.ENOMEM, false}, {unix.EIO, false},
		{unix.EACCES, true}, {unix.EPERM, true},
	} {
		s := &sink{opts: Options{Metadata: true}}
		s.stamped(".river/memory/a.json", &stx, stamp{}, ReasonOpen, tt.err)
		if got := s.files.n == 1; got != tt.kept {
			t.Errorf("%v: listed %v, want %v", tt.err, got, tt.kept)
		}
		if tt.kept && (len(s.notes) != 1 || s.notes[0].Reason != ReasonOpen || len(s.errs) != 0) {
			t.Errorf("%v: notes %+v, errors %v; want one open-failed note", tt.err, s.notes, s.errs)
		}
		if !tt.kept && (len(s.errs) != 1 || s.errs[0].Op != fserr.OpReadMeta || !errors.Is(s.errs[0], tt.err)) {
			t.Errorf("%v: errors %v; want one read-meta error", tt.err, s.errs)
		}
	}
}
