//go:build linux

package journal

import (
	"bufio"
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/backend/record"
)

// randomPath is a canonical root-relative path of random bytes (every
// value but '/' and NUL inside a component), with enough components, up
// to 255 bytes each, to reach several times PATH_MAX.
func randomPath(rng *rand.Rand) string {
	var b strings.Builder
	n := 1 + rng.IntN(8)
	if rng.IntN(4) == 0 {
		n = 20 + rng.IntN(50) // beyond PATH_MAX (4096) up to ~17 KB
	}
	for i := range n {
		if i > 0 {
			b.WriteByte('/')
		}
		size := 1 + rng.IntN(255)
		var c []byte
		for len(c) == 0 || string(c) == "." || string(c) == ".." {
			c = c[:0]
			for range size {
				c = append(c, byte(1+rng.IntN(255)))
				if c[len(c)-1] == '/' {
					c[len(c)-1] = 0x01 // a control byte: quoted four bytes wide
				}
			}
		}
		b.Write(c)
	}
	return b.String()
}

// parsed reads a whole journal held in memory, as recovery reads a
// disk journal (record.Parse with the disk's Valid).
func parsed(t testing.TB, journal []byte) ([]Intent, bool, int) {
	t.Helper()
	p, err := record.Parse(bufio.NewReaderSize(bytes.NewReader(journal), 64<<10), New(-1, nil).Valid)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return p.Intents, p.Runs > 0 && p.Runs == p.Done, p.Bad
}

// disk is a disk intent: its op, path and identity.
func disk(op record.Op, p string, dev, ino uint64, size, mtime int64) Intent {
	return Intent{Op: op, Key: p, Tag: Tag(dev, ino, size, mtime)}
}

// journalable reports whether the writer takes the intent (the line it
// writes reads back: a known op, a canonical path, a line within
// record.MaxLine).
func journalable(in Intent) bool {
	w, _ := Open(-1)
	return !errors.Is(w.Writer.Intend(ctx, []Intent{in}), record.ErrNotJournalable)
}

// TestEveryWrittenLineReadsBack (property, SPEC B6): intents of random
// byte paths, many beyond PATH_MAX and full of bytes that quote four
// wide, written as the writer writes them, read back exactly, none of
// them counted unreadable.
func TestEveryWrittenLineReadsBack(t *testing.T) {
	rng := rand.New(rand.NewPCG(133, 1))
	var journal []byte
	var want []Intent
	longest := 0
	for i := range 600 {
		in := disk(Delete, randomPath(rng), rng.Uint64(), rng.Uint64(), rng.Int64()-rng.Int64(), rng.Int64()-rng.Int64())
		if i%3 == 0 {
			in.Op = Rewrite
		}
		line := record.AppendLine(nil, in)
		if !journalable(in) {
			t.Fatalf("the writer refuses the canonical path %q (line of %d bytes)", in.Key, len(line))
		}
		longest = max(longest, len(line))
		journal = append(journal, line...)
		want = append(want, in)
	}
	journal = append(append([]byte(Header+"\nrun\n"), journal...), "done\n"...)
	got, finished, bad := parsed(t, journal)
	if bad != 0 || !finished || !slices.Equal(got, want) {
		t.Fatalf("read back %d intents (%d unreadable, finished %v) of %d written", len(got), bad, finished, len(want))
	}
	if longest <= 4*4096+128 {
		t.Errorf("the longest line is %d bytes: the property never went beyond the old bound", longest)
	}
	// The same intents through the file: Open, Intend, Recover.
	_, fd := tree(t, ".river")
	j, err := Open(fd)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Intend(want); err != nil {
		t.Fatal(err)
	}
	j.Close()
	found, err := recoverAt(fd, nil)
	if n, _ := lines(found); err != nil || found == nil || n != 0 ||
		!slices.Equal(slices.Concat(found.Removed, found.Rewritten), slices.Concat(filterOp(want, Delete), filterOp(want, Rewrite))) {
		t.Fatalf("Recover through the file: %v journals, err %v", found != nil, err)
	}
}

// filterOp is the sorted paths of the intents with op.
func filterOp(ins []Intent, op record.Op) []string {
	var ps []string
	for _, in := range ins {
		if in.Op == op {
			ps = append(ps, in.Key)
		}
	}
	slices.Sort(ps)
	return slices.Compact(ps)
}

// TestLongPathsReadBackThroughTheFile: a journal written by Open and
// Intend with paths of 16, 64 and 256 KB (control bytes, invalid UTF-8)
// names every one of them when its files are gone.
func TestLongPathsReadBackThroughTheFile(t *testing.T) {
	_, fd := tree(t, ".river/tmp")
	var ins []Intent
	var want []string
	for _, n := range []int{16 << 10, 64 << 10, 256 << 10} {
		var b strings.Builder
		b.WriteString(".river/tmp")
		for b.Len() < n {
			b.WriteString("/\x01\xff\n\"\\" + strings.Repeat("\x7f", 200))
		}
		ins = append(ins, disk(Delete, b.String(), 1, 2, 0, 0))
		want = append(want, b.String())
	}
	j, err := Open(fd)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Intend(ins); err != nil {
		t.Fatal(err)
	}
	j.Close()
	got, err := recoverAt(fd, nil)
	slices.Sort(want)
	if n, _ := lines(got); err != nil || got == nil || n != 0 || !slices.Equal(got.Removed, want) {
		t.Fatalf("Recover: %v journals, err %v", got != nil, err)
	}
}

// TestWriterRefusesWhatTheReaderCannotRead: an intent the reader would
// refuse (a path that is not canonical, a line beyond MaxLine, an
// unknown Op) fails Intend, and nothing of its batch reaches the file.
func TestWriterRefusesWhatTheReaderCannotRead(t *testing.T) {
	root, fd := tree(t, ".river/tmp")
	good := disk(Delete, ".river/tmp/ok", 0, 0, 0, 0)
	for name, bad := range map[string]Intent{
		"dot-dot":  disk(Delete, ".river/../x", 0, 0, 0, 0),
		"absolute": disk(Delete, "/etc/passwd", 0, 0, 0, 0),
		"NUL":      disk(Delete, ".river/tmp/a\x00b", 0, 0, 0, 0),
		"op":       disk("chmod", ".river/tmp/x", 0, 0, 0, 0),
		"overlong": disk(Delete, ".river/tmp/"+strings.Repeat("\x01", record.MaxLine/4), 0, 0, 0, 0),
	} {
		j, err := Open(fd)
		if err != nil {
			t.Fatal(err)
		}
		if err := j.Intend([]Intent{good, bad}); err == nil {
			t.Errorf("%s: Intend took %q", name, bad.Key)
		}
		j.Close()
		if b, _ := os.ReadFile(filepath.Join(root, Path)); bytes.Contains(b, []byte("ok")) {
			t.Errorf("%s: part of a refused batch was written", name)
		}
		os.Remove(filepath.Join(root, Path))
	}
}

// FuzzIntentLine: any intent the writer takes reads back exactly; any
// line at all parses without a panic, counted unreadable or read.
func FuzzIntentLine(f *testing.F) {
	f.Add([]byte(".river/tmp/a\nb"), uint64(1), uint64(2), int64(3), int64(-4))
	f.Add([]byte(".river/tmp/\xff\x01\"\\"), uint64(0), uint64(1<<63), int64(-1), int64(1<<62))
	f.Add([]byte("../x"), uint64(1), uint64(1), int64(0), int64(0))
	f.Fuzz(func(t *testing.T, p []byte, dev, ino uint64, size, mtime int64) {
		in := disk(Delete, string(p), dev, ino, size, mtime)
		line := record.AppendLine(nil, in)
		journal := append(append([]byte(Header+"\nrun\n"), line...), "done\n"...)
		got, _, bad := parsed(t, journal)
		if journalable(in) {
			if bad != 0 || len(got) != 1 || got[0] != in {
				t.Fatalf("written %+v, read %+v (%d unreadable)", in, got, bad)
			}
		}
		parsed(t, append([]byte(Header+"\n"), p...)) // must not panic
	})
}

// BenchmarkIntentLine: writing an intent's line alone (the baseline),
// with the check that the reader takes it back (what Intend does), and
// reading it back, for a typical 60-byte path.
func BenchmarkIntentLine(b *testing.B) {
	in := disk(Delete, ".river/tmp/run-20261201/review-artifact-000123.json", 2049, 1234567, 4096, 1764374400123456789)
	valid := New(-1, nil).Valid
	buf := make([]byte, 0, 256)
	b.Run("write", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf = record.AppendLine(buf[:0], in)
		}
	})
	b.Run("write+check", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf = record.AppendLine(buf[:0], in)
			if !valid(in) || len(buf) > record.MaxLine {
				b.Fatal("refused")
			}
		}
	})
	journal := append([]byte(Header+"\n"), record.AppendLine(nil, in)...)
	b.Run("read", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if p, _ := record.Parse(bufio.NewReader(bytes.NewReader(journal)), valid); len(p.Intents) != 1 {
				b.Fatal("unreadable")
			}
		}
	})
}
