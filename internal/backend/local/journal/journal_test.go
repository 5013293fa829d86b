//go:build linux

package journal

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/backend/record"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
)

var ctx = context.Background()

// Intent, and the ops and header, are the record's.
type Intent = record.Intent

const (
	Delete  = record.Delete
	Rewrite = record.Rewrite
	Temp    = record.Temp
	Header  = record.Header
)

// writer is a run's journal on the root as a --force run writes it.
type writer struct {
	*record.Writer
	j *Journals
}

// Open opens the root's journal for a run (nothing is written before
// its first Intend).
func Open(fd int) (*writer, error) {
	j := New(fd, nil)
	return &writer{record.NewWriter(j, nil), j}, nil
}

// Intend journals a batch durably.
func (w *writer) Intend(ins []Intent) error { return w.Writer.Intend(ctx, ins) }

// Done appends "done".
func (w *writer) Done() error { return w.Writer.Done(ctx) }

// Rel is the journal's name.
func (w *writer) Rel() string { return w.j.Rel() }

// Close closes the journal, leaving it in place.
func (w *writer) Close() error { return w.j.Close() }

// recoverAt reads the root's journals as a --force run does.
func recoverAt(fd int, held func(string) []string) (*record.Recovered, error) {
	return record.Recover(ctx, New(fd, held), nil, nil, time.Now())
}

// discard removes (or sets aside) what rec read and what w wrote.
func discard(fd int, rec *record.Recovered, w *writer) error {
	j := New(fd, nil)
	var rw *record.Writer
	if w != nil {
		j, rw = w.j, w.Writer
		defer w.Close()
	}
	return record.Discard(ctx, j, rec, rw)
}

// lines is the number of unreadable lines rec counts, and the name its
// first unreadable journal goes aside to.
func lines(rec *record.Recovered) (n int, aside string) {
	for _, u := range rec.Unreadable {
		n += u.Lines
		aside = u.Aside
	}
	return n, aside
}

// identityOf is the file's identity as an intent's tag.
func identityOf(st *unix.Stat_t) string {
	return Tag(uint64(st.Dev), st.Ino, st.Size, st.Mtim.Sec*1e9+st.Mtim.Nsec)
}

// tree makes a root with .river/tmp and returns it with an O_PATH
// descriptor.
func tree(t *testing.T, dirs ...string) (string, int) {
	t.Helper()
	root := t.TempDir()
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	fd, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	return root, fd
}

// intentOf writes a file and returns its delete intent.
func intentOf(t *testing.T, root, rel string) Intent {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	var st unix.Stat_t
	if err := unix.Lstat(p, &st); err != nil {
		t.Fatal(err)
	}
	return Intent{Op: Delete, Key: rel, Tag: identityOf(&st)}
}

// TestRecoverNamesExactlyTheGoneFiles: names with a newline, a quote, a
// space, invalid UTF-8 and a backslash read back exactly; a file still
// there is not reported, one replaced by another file is.
func TestRecoverNamesExactlyTheGoneFiles(t *testing.T) {
	root, fd := tree(t, ".river/tmp")
	names := []string{".river/tmp/a\nb", ".river/tmp/q\"uote", ".river/tmp/sp ace", ".river/tmp/bad\xff", `.river/tmp/back\slash`, ".river/tmp/kept", ".river/tmp/replaced"}
	var ins []Intent
	for _, n := range names {
		ins = append(ins, intentOf(t, root, n))
	}
	j, err := Open(fd)
	if err != nil {
		t.Fatal(err)
	}
	if j.Rel() != Path {
		t.Errorf("journal at %s, want %s", j.Rel(), Path)
	}
	if err := j.Intend(ins); err != nil {
		t.Fatal(err)
	}
	for _, n := range names[:5] {
		os.Remove(filepath.Join(root, n))
	}
	os.Remove(filepath.Join(root, ".river/tmp/replaced"))
	intentOf(t, root, ".river/tmp/replaced") // another inode, same name
	j.Close()
	got, err := recoverAt(fd, nil)
	if err != nil || got == nil || !slices.Equal(got.Journals, []string{Path}) {
		t.Fatalf("Recover = %+v, %v", got, err)
	}
	want := append(slices.Clone(names[:5]), ".river/tmp/replaced")
	slices.Sort(want)
	if !slices.Equal(got.Removed, want) || got.Finished {
		t.Errorf("Removed = %q (finished %v), want %q, not finished", got.Removed, got.Finished, want)
	}
}

// TestTornLastLineIgnoredUnreadableSetAside: a last line cut short (a
// kill inside write) is ignored; a line not in the format, before the
// end or in the place of the header, is counted and every other line is
// still read; Remove then moves the journal, bytes intact, to the free
// name SetAside instead of deleting it (decision 133).
func TestTornLastLineIgnoredUnreadableSetAside(t *testing.T) {
	root, fd := tree(t, ".river/tmp")
	j := filepath.Join(root, Path)
	os.WriteFile(j, []byte(Header+"\nrun\ndelete 1 2 3 4 \".river/tmp/x\"\ndelete 1 2"), 0o600)
	got, err := recoverAt(fd, nil)
	if n, aside := lines(got); err != nil || got == nil || !slices.Equal(got.Removed, []string{".river/tmp/x"}) || n != 0 || aside != "" {
		t.Errorf("torn tail: %+v, %v", got, err)
	}
	os.WriteFile(filepath.Join(root, Path+".unreadable-1"), []byte("someone's"), 0o600)
	for name, c := range map[string]struct {
		body string
		bad  int
	}{
		"garbage":       {Header + "\nrun\ngarbage\ndelete 1 2 3 4 \".river/tmp/x\"\ndone\n", 1},
		"non-canonical": {Header + "\nrun\ndelete 1 2 3 4 \"../escape\"\ndelete 1 2 3 4 \".river/tmp/x\"\ndone\n", 1},
		"foreign":       {"river-gc-journal 9\nrun\ndelete 1 2 3 4 \".river/tmp/x\"\ndone\n", 1},
		"no header":     {"delete 1 2 3 4 \".river/tmp/x\"\nrun\n\x00\xff\ndone\n", 2},
		"not a journal": {"not a journal\nrun\ndelete 1 2 3 4 \".river/tmp/x\"\ndone\n", 1},
	} {
		body := c.body
		os.WriteFile(j, []byte(body), 0o600)
		got, err := recoverAt(fd, nil)
		want := Path + ".unreadable-2"
		if n, aside := lines(got); err != nil || got == nil || !slices.Equal(got.Removed, []string{".river/tmp/x"}) || n != c.bad || got.Finished || aside != want {
			t.Errorf("%s: %+v, %v; want x read, %d lines unreadable, set aside as %s", name, got, err, c.bad, want)
			continue
		}
		if err := discard(fd, got, nil); err != nil {
			t.Errorf("%s: Remove: %v", name, err)
		}
		if b, err := os.ReadFile(filepath.Join(root, want)); err != nil || string(b) != body {
			t.Errorf("%s: set aside %q, %v; want the journal's bytes", name, b, err)
		}
		if b, _ := os.ReadFile(filepath.Join(root, Path+".unreadable-1")); string(b) != "someone's" {
			t.Errorf("%s: the taken name was overwritten: %q", name, b)
		}
		if _, err := os.Lstat(j); err == nil {
			t.Errorf("%s: the journal is still at %s", name, Path)
		}
		os.Remove(filepath.Join(root, want))
	}
}

// TestOpenNeverFollowsOrAdopts: a symlink at the journal's name is
// neither written through nor read; a hard-linked journal is not appended
// to; a symlinked .river sends the journal to AltPath.
func TestOpenNeverFollowsOrAdopts(t *testing.T) {
	root, fd := tree(t, ".river", "artifacts")
	victim := filepath.Join(root, "victim")
	os.WriteFile(victim, []byte("keep"), 0o644)
	os.Symlink(victim, filepath.Join(root, Path))
	if j, _ := Open(fd); j.Intend([]Intent{{Op: Delete, Key: ".river/tmp/x", Tag: "1 2 3 4"}}) == nil {
		j.Close()
		t.Errorf("Open through a symlink succeeded")
	}
	if _, err := recoverAt(fd, nil); err == nil {
		t.Errorf("Recover read through a symlink without an error")
	}
	os.Remove(filepath.Join(root, Path))
	os.Link(victim, filepath.Join(root, Path))
	if j, _ := Open(fd); !errors.Is(j.Intend([]Intent{{Op: Delete, Key: ".river/tmp/x", Tag: "1 2 3 4"}}), fserr.ErrLinked) {
		j.Close()
		t.Errorf("Open of a hard-linked journal: want ErrLinked")
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("victim changed: %q", b)
	}
	os.Remove(filepath.Join(root, Path))
	os.Remove(filepath.Join(root, ".river"))
	os.Symlink("artifacts", filepath.Join(root, ".river"))
	j, _ := Open(fd)
	if err := j.Intend([]Intent{{Op: Delete, Key: ".river/tmp/x", Tag: "1 2 3 4"}}); err != nil || j.Rel() != AltPath {
		t.Fatalf("Open with a symlinked .river: %v, %v; want %s", j.Rel(), err, AltPath)
	}
	j.Close()
	if _, err := os.Lstat(filepath.Join(root, "artifacts/gc-journal")); err == nil {
		t.Errorf("journal written through the .river symlink")
	}
}

// TestAppendHeldAndRemove: a second run appends to a killed run's
// journal; a file held under its private name is not reported; Remove
// deletes both journals only while they are the files read.
func TestAppendHeldAndRemove(t *testing.T) {
	root, fd := tree(t, ".river/tmp")
	a, b := intentOf(t, root, ".river/tmp/a"), intentOf(t, root, ".river/tmp/b")
	j, _ := Open(fd)
	j.Intend([]Intent{a})
	j.Done()
	j.Close()
	j2, err := Open(fd)
	if err != nil {
		t.Fatal(err)
	}
	j2.Intend([]Intent{b})
	os.Rename(filepath.Join(root, ".river/tmp/a"), filepath.Join(root, ".river/tmp/.held.a"))
	os.Remove(filepath.Join(root, ".river/tmp/b"))
	held := func(p string) []string { return []string{filepath.Dir(p) + "/.held." + filepath.Base(p)} }
	got, err := recoverAt(fd, held)
	if err != nil || got == nil || !slices.Equal(got.Removed, []string{".river/tmp/b"}) || got.Finished {
		t.Fatalf("Recover = %+v, %v; want b only, not finished", got, err)
	}
	// A journal replaced since it was read is not ours to remove.
	other := filepath.Join(root, ".river/other")
	os.WriteFile(other, []byte(Header+"\n"), 0o600)
	os.Rename(filepath.Join(root, Path), other+".old")
	os.Rename(other, filepath.Join(root, Path))
	if err := discard(fd, got, nil); !errors.Is(err, fserr.ErrChanged) {
		t.Errorf("Remove of a journal replaced since it was read: %v, want ErrChanged", err)
	}
	if _, err := os.Lstat(filepath.Join(root, Path)); err != nil {
		t.Errorf("the replacement was removed: %v", err)
	}
	os.Rename(other+".old", filepath.Join(root, Path))
	if err := discard(fd, got, j2); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(root, Path)); err == nil {
		t.Errorf("journal left after Remove")
	}
}

// TestOurs names exactly the journal's names and their set-aside forms.
func TestOurs(t *testing.T) {
	for rel, want := range map[string]bool{
		Path: true, AltPath: true, Path + ".unreadable-1": true, AltPath + ".unreadable-12": true,
		Path + ".unreadable-": false, Path + ".unreadable-1x": false, Path + "x": false, ".river/tmp/gc-journal": false,
	} {
		if Ours(rel) != want {
			t.Errorf("Ours(%q) = %v, want %v", rel, !want, want)
		}
	}
}

// TestCanonical: scan's form, and nothing else, is canonical.
func TestCanonical(t *testing.T) {
	for p, want := range map[string]bool{
		"a": true, "a/b": true, ".river/tmp/x y": true, "a/.b": true, "a/..b": true,
		"": false, "/a": false, "a/": false, "a//b": false, "./a": false, "a/.": false, "a/../b": false, "..": false, "a\x00b": false,
	} {
		if canonical(p) != want {
			t.Errorf("canonical(%q) = %v, want %v", p, !want, want)
		}
	}
}

// TestAppendAfterACutLine: a run appending to a journal whose last write
// a kill cut short starts its "run" on a line of its own, and the cut
// line is not counted unreadable: two kills in a row are no false alarm.
func TestAppendAfterACutLine(t *testing.T) {
	root, fd := tree(t, ".river/tmp")
	os.WriteFile(filepath.Join(root, Path), []byte(Header+"\nrun\ndelete 1 2 3 4 \".river/tmp/x\"\ndelete 1 2 3 4 \".riv"), 0o600)
	j, err := Open(fd)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Intend([]Intent{{Op: Delete, Key: ".river/tmp/y", Tag: "1 2 0 0"}}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	got, err := recoverAt(fd, nil)
	if n, _ := lines(got); err != nil || got == nil || n != 0 || !slices.Equal(got.Removed, []string{".river/tmp/x", ".river/tmp/y"}) {
		t.Errorf("Recover = %+v, %v; want x and y, nothing unreadable", got, err)
	}
}

// TestForeignJournalIsNeitherReadNorWritten (decision 346): a journal
// name the git index tracks (Foreign) is left out of List, so no run
// reads, sets aside or removes it, and Append refuses to open it
// (fserr.ErrTrackedJournal) and leaves it as it was.
func TestForeignJournalIsNeitherReadNorWritten(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{".river", "artifacts"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	const body = Header + "\nrun\n"
	for _, rel := range []string{Path, AltPath} {
		if err := os.WriteFile(filepath.Join(root, rel), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	fd, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	j := New(fd, nil)
	j.Foreign(Path)
	units, err := j.List(ctx)
	if err != nil || len(units) != 1 || units[0].Name != AltPath {
		t.Errorf("List = %+v, %v; want %s alone", units, err, AltPath)
	}
	if _, err := j.Append(ctx, []byte("run\n")); !errors.Is(err, fserr.ErrTrackedJournal) {
		t.Errorf("Append over a foreign %s: %v; want ErrTrackedJournal", Path, err)
	}
	if b, err := os.ReadFile(filepath.Join(root, Path)); err != nil || string(b) != body {
		t.Errorf("the foreign %s: %q, %v; want it unchanged", Path, b, err)
	}
}

// TestListed (decision 346): the journal names among the files listed,
// the journals' own and those set aside, sorted; nothing else.
func TestListed(t *testing.T) {
	files := map[string][]string{
		Path:    {Path, Path + ".unreadable-3", Path + "x", Path + ".unreadable-"},
		AltPath: {AltPath + ".unreadable-1"},
	}
	got := Listed(func(p string) []string { return files[p] })
	want := []string{Path, Path + ".unreadable-3", AltPath + ".unreadable-1"}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("Listed = %q, want %q", got, want)
	}
	for rel, want := range map[string]string{Path: Path, Path + ".unreadable-3": Path, AltPath + ".unreadable-1": AltPath, AltPath: AltPath, Path + "x": ""} {
		if got := Of(rel); got != want {
			t.Errorf("Of(%q) = %q, want %q", rel, got, want)
		}
	}
}
