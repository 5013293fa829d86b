//go:build linux

package main

import (
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// gitIndex writes a version 2 index of regular files named names, with
// extensions (4-byte signature plus payload) and a SHA-1 trailer.
func gitIndex(names []string, exts ...string) []byte {
	b := []byte("DIRC\x00\x00\x00\x02")
	b = binary.BigEndian.AppendUint32(b, uint32(len(names)))
	for _, name := range names {
		start := len(b)
		b = append(b, make([]byte, 24)...)
		b = binary.BigEndian.AppendUint32(b, 0o100644)
		b = append(b, make([]byte, 12+sha1.Size)...)
		b = binary.BigEndian.AppendUint16(b, uint16(len(name)))
		b = append(b, name...)
		for pad := (len(b) - start + 8) &^ 7; len(b)-start < pad; {
			b = append(b, 0)
		}
	}
	for _, e := range exts {
		b = append(b, e[:4]...)
		b = binary.BigEndian.AppendUint32(b, uint32(len(e)-4))
		b = append(b, e[4:]...)
	}
	sum := sha1.Sum(b)
	return append(b, sum[:]...)
}

// TestHostileSplitIndexThroughTheBinary: a split index of about 100 bytes
// whose delete bitmap claims 2^32 set bits (32 GiB decoded naively) is
// "cannot read the git index", exit 1, under a 2 GiB address-space limit,
// and nothing is deleted (SPEC B4 "Bounded cost for hostile git data").
func TestHostileSplitIndexThroughTheBinary(t *testing.T) {
	t.Parallel()
	bin, err := exec.LookPath("river-gc") // installed on PATH by testscript.Main
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	shared := gitIndex([]string{".river/tmp/old.txt"})
	id := shared[len(shared)-sha1.Size:]
	bitmap := binary.BigEndian.AppendUint32(nil, 0xffffffff)
	bitmap = binary.BigEndian.AppendUint32(bitmap, 1)
	bitmap = binary.BigEndian.AppendUint64(bitmap, 1<<26<<1|1)
	bitmap = binary.BigEndian.AppendUint32(bitmap, 0)
	split := gitIndex(nil, "link"+string(id)+string(bitmap)+string(make([]byte, 12)))
	old := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	for name, data := range map[string][]byte{
		".git/HEAD":  []byte("ref: refs/heads/main\n"),
		".git/index": split,
		".git/sharedindex." + hex.EncodeToString(id): shared,
		".river/tmp/old.txt":                         []byte("tracked\n"),
	} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	if len(split) > 128 {
		t.Fatalf("hostile index is %d bytes", len(split))
	}
	cmd := exec.Command("sh", "-c", `ulimit -v 2097152 && exec "$0" --now 2025-11-29T00:00:00Z --force --quiet`, bin)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 1 || !strings.HasPrefix(string(out), "river gc: cannot read the git index") {
		t.Fatalf("river-gc = exit %d (%v), %.300q; want exit 1, cannot read the git index", code, err, out)
	}
	if _, err := os.Stat(filepath.Join(root, ".river/tmp/old.txt")); err != nil {
		t.Errorf("the file the index may track was touched: %v", err)
	}
}
