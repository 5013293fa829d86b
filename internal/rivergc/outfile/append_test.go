//go:build linux

package outfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// ATTACK (fails until fixed): --summary-file is checked when the flags are
// validated, but opened only after the scan and the deletions. Whatever
// appears at the path in between must still be refused when it is opened
// (SPEC B2: never write to a non-regular file, never append to a file with
// other links). Append is that last moment.

// TestAppendRefusesAFIFO: a FIFO put at the summary path after
// the check is written to (and, with no reader, blocks river gc forever
// after --force has deleted, so the JSON record is never written). The
// test holds a reader open so that it cannot hang; open with O_NONBLOCK
// and fstat the descriptor.
func TestAppendRefusesAFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "summary.md")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	r, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := Append(p, []byte("summary\n")); err == nil {
		t.Fatalf("Append wrote to a FIFO; want an error")
	}
}

// TestAppendRefusesAHardLink: a hard link made to the summary
// path after the check (say to a single source) is appended to.
func TestAppendRefusesAHardLink(t *testing.T) {
	dir := t.TempDir()
	guarded := filepath.Join(dir, "index.json")
	if err := os.WriteFile(guarded, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "summary.md")
	if err := os.Link(guarded, p); err != nil {
		t.Skipf("link: %v", err)
	}
	err := Append(p, []byte("summary\n"))
	got, rerr := os.ReadFile(guarded)
	if rerr != nil {
		t.Fatal(rerr)
	}
	if err == nil || string(got) != "{}\n" {
		t.Fatalf("Append through a second link: err %v, linked file now %q; want an error and no change", err, got)
	}
}
