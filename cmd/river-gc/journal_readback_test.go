//go:build linux

package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/backend/local/journal"
	"github.com/plangate-gc/plangate-gc/internal/backend/record"
)

// runGC runs river-gc with args and returns its stdout and exit code.
func runGC(t *testing.T, bin string, args ...string) ([]byte, int) {
	t.Helper()
	out, err := exec.Command(bin, args...).Output()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return out, ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return out, 0
}

// writeJournal journals deletions of paths under root as a killed
// --force run would (record.Writer on the disk's journal, the writer
// itself).
func writeJournal(t *testing.T, root string, paths []string) {
	t.Helper()
	fd, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	js := journal.New(fd, nil)
	var ins []record.Intent
	for _, p := range paths {
		ins = append(ins, record.Intent{Op: record.Delete, Key: p, Tag: journal.Tag(1, 1, 0, 0)})
	}
	if err := record.NewWriter(js, nil).Intend(context.Background(), ins); err != nil {
		t.Fatal(err)
	}
	js.Close() // killed: no "done", no record
}

// TestJournalOfLongPathsReadsBack (SPEC B6, issue 24): the journal of a
// killed run that deleted files with a 17 KB path and a 4.2 KB path of
// control characters is read by the next runs: both are named in
// interrupted.removed, the runs exit 0, and the --force run removes the
// journal (the old reader refused such lines: the files were in no
// record and every later run exited 1).
func TestJournalOfLongPathsReadsBack(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".river/tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	long := ".river/tmp/" + strings.Repeat(strings.Repeat("d", 200)+"/", 85) + "f"
	ctrl := ".river/tmp/" + strings.Repeat("\x01\x1b", 2100)
	writeJournal(t, root, []string{long, ctrl})
	want := []string{long, ctrl}
	slices.Sort(want)
	for _, args := range [][]string{{"--json", "--quiet"}, forceArgs} {
		out, code := runGC(t, bin, append(args, "--root", root)...)
		rec := readRecord(t, out)
		if code != 0 || rec.Interrupted == nil || !slices.Equal(rec.Interrupted.Removed, want) {
			t.Fatalf("%v: exit %d, errors %+v; interrupted.removed names %d of the 2 journaled paths", args, code, rec.Errors, countOf(rec))
		}
	}
	if _, err := os.Lstat(filepath.Join(root, journal.Path)); err == nil {
		t.Errorf("the journal is left after the --force run that recorded it")
	}
}

// countOf is how many paths a record's interrupted list names.
func countOf(r gcRecord) int {
	if r.Interrupted == nil {
		return 0
	}
	return len(r.Interrupted.Removed)
}

// TestUnreadableJournalHasAWayOut (SPEC B6, decision 133): a journal with
// a garbled line still yields what it can: the dry-run names the
// readable deletion in interrupted and the journal in errors[] (exit 1)
// and leaves it; the --force run reports the same, does its own
// deletions, and moves the journal, bytes intact, to
// .river/gc-journal.unreadable-1; the run after that is a normal run.
func TestUnreadableJournalHasAWayOut(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	root := t.TempDir()
	oldTree(t, root, 3, 1)
	body := record.Header + "\nrun\ndelete 1 1 0 0 \".river/tmp/gone\"\n\x00garbled by a disk\ndone\n"
	if err := os.WriteFile(filepath.Join(root, journal.Path), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	aside := journal.Path + ".unreadable-1"
	named := func(rec gcRecord) bool {
		for _, e := range rec.Errors {
			if e.Path == journal.Path && strings.Contains(e.Message, aside) {
				return true
			}
		}
		return false
	}
	out, code := runGC(t, bin, "--json", "--quiet", "--root", root, "--now", future)
	rec := readRecord(t, out)
	if code != 1 || countOf(rec) != 1 || rec.Interrupted.Removed[0] != ".river/tmp/gone" || !named(rec) {
		t.Fatalf("dry-run: exit %d, interrupted %+v, errors %+v", code, rec.Interrupted, rec.Errors)
	}
	out, code = runGC(t, bin, append(forceArgs, "--root", root)...)
	rec = readRecord(t, out)
	if code != 1 || countOf(rec) != 1 || !named(rec) || len(rec.Removed) != 3 {
		t.Fatalf("--force: exit %d, %d removed, interrupted %+v, errors %+v", code, len(rec.Removed), rec.Interrupted, rec.Errors)
	}
	kept, err := os.ReadFile(filepath.Join(root, aside))
	if err != nil || !strings.HasPrefix(string(kept), body) {
		t.Fatalf("set aside: %q, %v; want the journal's bytes", kept, err)
	}
	if _, err := os.Lstat(filepath.Join(root, journal.Path)); err == nil {
		t.Errorf("the unreadable journal is still at %s", journal.Path)
	}
	out, code = runGC(t, bin, append(forceArgs, "--root", root)...)
	if rec = readRecord(t, out); code != 0 || rec.Interrupted != nil || len(rec.Errors) != 0 {
		t.Errorf("the run after: exit %d, interrupted %+v, errors %+v", code, rec.Interrupted, rec.Errors)
	}
}
