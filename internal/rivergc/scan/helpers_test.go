//go:build linux

package scan

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/testtree"

	"github.com/plangate-gc/plangate-gc/internal/asnobody"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/skill"
)

// TestMain lets the permission test run one Scan of the memory scope as
// an unprivileged user (internal/asnobody).
func TestMain(m *testing.M) {
	asnobody.Child(func(arg json.RawMessage) any {
		var root string
		if err := json.Unmarshal(arg, &root); err != nil {
			return err.Error()
		}
		res, err := scanPath(root, skill.ScopeMemory, Options{Metadata: true})
		if err != nil {
			return err.Error()
		}
		return nobodyResult{Files: res.Files, Errors: errKeys(res.Errors), Notes: nobodyNotes(res.Notes)}
	})
	os.Exit(m.Run())
}

// nobodyResult is a Result in a form that survives the JSON trip from the
// unprivileged child: errors and notes carry their errno as a number.
type nobodyResult struct {
	Files  []File
	Errors []errKey
	Notes  []nobodyNote
}

// errKey is the comparable content of an *fserr.Error: Errno when the
// cause is a system error, Cause when it is a sentinel.
type errKey struct {
	Op    fserr.Op
	Path  string
	Errno unix.Errno
	Cause error `json:"-"`
}

func errKeys(errs []*fserr.Error) []errKey {
	out := []errKey{}
	for _, e := range errs {
		k := errKey{Op: e.Op, Path: e.Path}
		if !errors.As(e, &k.Errno) {
			k.Cause = e.Err
		}
		out = append(out, k)
	}
	return out
}

// nobodyNote is the content of a Note that JSON keeps (Err as an errno).
type nobodyNote struct {
	Path   string
	Kind   NoteKind
	Reason MetaReason
	Errno  unix.Errno
}

func nobodyNotes(notes []Note) []nobodyNote {
	out := []nobodyNote{}
	for _, n := range notes {
		k := nobodyNote{Path: n.Path, Kind: n.Kind, Reason: n.Reason}
		errors.As(n.Err, &k.Errno)
		out = append(out, k)
	}
	return out
}

// runAsNobody scans root as uid 65534 (see internal/asnobody).
func runAsNobody(t *testing.T, base, root string) nobodyResult {
	t.Helper()
	var res nobodyResult
	asnobody.Run(t, base, root, &res)
	return res
}

// epoch is an arbitrary fixed mtime, far from any metadata timestamp used.
var epoch = time.Unix(1_600_000_000, 123_456_789)

// write creates root/rel with content and mtime, creating parents.
func write(t testing.TB, root, rel, content string, mtime time.Time) {
	t.Helper()
	testtree.Write(t, root, rel, content, mtime)
}

func mkdir(t testing.TB, root, rel string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(root, rel), 0o755); err != nil {
		t.Fatal(err)
	}
}

func symlink(t testing.TB, target, root, rel string) {
	t.Helper()
	mkdir(t, root, filepath.Dir(rel))
	if err := os.Symlink(target, filepath.Join(root, rel)); err != nil {
		t.Fatal(err)
	}
}

func paths(files []File) []string {
	out := []string{}
	for _, f := range files {
		out = append(out, f.Path)
	}
	return out
}

func find(files []File, p string) (File, bool) {
	for _, f := range files {
		if f.Path == p {
			return f, true
		}
	}
	return File{}, false
}

// scanPath opens root as river gc does (O_PATH) and scans it.
func scanPath(root string, scope skill.Scope, opts Options) (Result, error) {
	fd, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return Result{}, err
	}
	defer unix.Close(fd)
	return Scan(fd, scope, opts), nil
}

// scanRoot is scanPath for a test.
func scanRoot(t testing.TB, root string, scope skill.Scope, opts Options) Result {
	t.Helper()
	res, err := scanPath(root, scope, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// hasNote reports whether notes hold one of kind at path.
func hasNote(notes []Note, path string, kind NoteKind) bool {
	for _, n := range notes {
		if n.Path == path && n.Kind == kind {
			return true
		}
	}
	return false
}

// scanWithin runs Scan and fails the test if it does not return in time;
// a scan that opened a FIFO for reading would block forever.
func scanWithin(t *testing.T, d time.Duration, root string, scope skill.Scope, opts Options) Result {
	t.Helper()
	done := make(chan Result, 1)
	go func() { done <- scanRoot(t, root, scope, opts) }()
	select {
	case r := <-done:
		return r
	case <-time.After(d):
		t.Fatalf("Scan(%s) did not return within %v (blocked on a FIFO?)", scope, d)
		return Result{}
	}
}
