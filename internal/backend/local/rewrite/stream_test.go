//go:build linux

package rewrite

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/fserr"
)

// halfThenFail writes the first half of its bytes, then fails, as a
// splice whose file runs out of space (ENOSPC) or fails (EIO) would.
type halfThenFail struct {
	b   []byte
	err error
}

func (h halfThenFail) WriteTo(w io.Writer) (int64, error) {
	n, err := w.Write(h.b[:len(h.b)/2])
	if err != nil {
		return int64(n), err
	}
	return int64(n), h.err
}

// bothPaths runs f with O_TMPFILE and with the named fallback.
func bothPaths(t *testing.T, f func(t *testing.T)) {
	for _, named := range []bool{false, true} {
		t.Run(map[bool]string{false: "tmpfile", true: "named"}[named], func(t *testing.T) {
			withoutTmpfile = named
			t.Cleanup(func() { withoutTmpfile = false })
			f(t)
		})
	}
}

// names lists dir's entries.
func names(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// TestStreamFailureLeavesTheOriginal (decision 268): a copy whose writer
// fails mid-stream (more than the buffer already in the file), and a
// copy that comes to another size than announced, replace nothing: the
// original is byte for byte what it was, with its identity, nothing is
// journaled, and no temporary file is left, with O_TMPFILE and with the
// named fallback.
func TestStreamFailureLeavesTheOriginal(t *testing.T) {
	big := bytes.Repeat([]byte("{\"id\":\"kept\"},\n"), 3*copyBuffer/15)
	eio := errors.New("input/output error")
	for _, c := range []struct {
		name    string
		size    int64
		content func() io.WriterTo // a new one for each path
		want    func(error) bool
	}{
		{"error mid-stream", int64(len(big)), func() io.WriterTo { return halfThenFail{big, eio} }, func(err error) bool { return errors.Is(err, eio) }},
		{"short", int64(len(big)) + 1, func() io.WriterTo { return bytes.NewReader(big) }, func(err error) bool {
			var e *fserr.CopySizeError
			return errors.As(err, &e) && e.Got == int64(len(big)) && e.Want == int64(len(big))+1
		}},
		{"long", int64(len(big)) - 1, func() io.WriterTo { return bytes.NewReader(big) }, func(err error) bool {
			var e *fserr.CopySizeError
			return errors.As(err, &e) && e.Got == int64(len(big))
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			bothPaths(t, func(t *testing.T) {
				orig := strings.Repeat("original line\n", 1000)
				root, fd := setup(t, orig, 0o640)
				dir := filepath.Join(root, ".river/memory")
				before := names(t, dir)
				_, id, err := Read(fd, ".river/memory/index.json")
				if err != nil {
					t.Fatal(err)
				}
				intended := 0
				err = Replace(fd, ".river/memory/index.json", id, c.size, c.content(), Options{Intend: func(string, string, Ident) error {
					intended++
					return nil
				}})
				if !c.want(err) {
					t.Fatalf("err = %v", err)
				}
				if got, _ := os.ReadFile(filepath.Join(dir, "index.json")); string(got) != orig {
					t.Errorf("original is %d bytes, want its %d as they were", len(got), len(orig))
				}
				if _, now, err := Read(fd, ".river/memory/index.json"); err != nil || now != id {
					t.Errorf("original's identity %+v, %v; want %+v", now, err, id)
				}
				if intended != 0 {
					t.Errorf("Intend called %d times for a copy never completed", intended)
				}
				if after := names(t, dir); !slices.Equal(after, before) {
					t.Errorf("directory %v, want %v (no temporary file left)", after, before)
				}
			})
		})
	}
}

// TestStreamedCopyReplaces: a copy larger than the buffer, written in
// many small pieces, replaces the original exactly, on both paths.
func TestStreamedCopyReplaces(t *testing.T) {
	bothPaths(t, func(t *testing.T) {
		root, fd := setup(t, "old\n", 0o644)
		_, id, err := Read(fd, ".river/memory/index.json")
		if err != nil {
			t.Fatal(err)
		}
		want := bytes.Repeat([]byte("0123456789abcdef\n"), 3*copyBuffer/17+5)
		if err := Replace(fd, ".river/memory/index.json", id, int64(len(want)), pieces(want), Options{}); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(filepath.Join(root, ".river/memory/index.json")); !bytes.Equal(got, want) {
			t.Errorf("replaced by %d bytes, want %d", len(got), len(want))
		}
		if l := leftovers(t, filepath.Join(root, ".river/memory")); l != nil {
			t.Errorf("left %v", l)
		}
	})
}

// pieces writes its bytes seven at a time.
type pieces []byte

func (p pieces) WriteTo(w io.Writer) (n int64, err error) {
	for b := []byte(p); len(b) > 0 && err == nil; {
		m, e := w.Write(b[:min(7, len(b))])
		n, b, err = n+int64(m), b[m:], e
	}
	return n, err
}
