//go:build linux

package gitindex

import (
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"
)

// encode writes a version 2, 3 or 4 index of regular files named names,
// with optional extensions (each a 4-byte signature plus payload) and a
// correct SHA-1 trailer. It is the test's own writer, independent of git.
func encode(version int, names []string, exts ...string) []byte {
	b := []byte("DIRC")
	b = binary.BigEndian.AppendUint32(b, uint32(version))
	b = binary.BigEndian.AppendUint32(b, uint32(len(names)))
	prev := ""
	for _, name := range names {
		start := len(b)
		b = append(b, make([]byte, 24)...)             // ctime, mtime, dev, ino
		b = binary.BigEndian.AppendUint32(b, 0o100644) // mode
		b = append(b, make([]byte, 12+sha1Size)...)    // uid, gid, size, oid
		b = binary.BigEndian.AppendUint16(b, uint16(min(len(name), flagNameMask)))
		if version == 4 {
			common := 0
			for common < len(prev) && common < len(name) && prev[common] == name[common] {
				common++
			}
			b = append(b, byte(len(prev)-common)) // fits one byte in these tests
			b = append(b, name[common:]...)
			b = append(b, 0)
			prev = name
			continue
		}
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

var sample = []string{".gitkeep", "a b/c.txt", "a b/d.txt", "日本語/ファイル.json", "z"}

func TestParseIndexRoundTrip(t *testing.T) {
	for _, v := range []int{2, 3, 4} {
		t.Run(fmt.Sprint("v", v), func(t *testing.T) {
			ix, err := parseIndex(encode(v, sample, "TREE", "UNTRxyz", "sdir"), sha1Size)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(ix.names) != fmt.Sprint(sample) {
				t.Errorf("names = %q, want %q", ix.names, sample)
			}
		})
	}
}

func TestParseIndexErrors(t *testing.T) {
	zeroSum := func(b []byte) []byte {
		clear(b[len(b)-sha1Size:]) // index.skipHash: no checksum to check
		return b
	}
	badSum := encode(2, sample)
	badSum[len(badSum)-1] ^= 1
	v5 := encode(2, sample)
	v5[7] = 5
	for name, tc := range map[string]struct {
		data []byte
		want error
	}{
		"checksum":           {badSum, ErrCorrupt},
		"signature":          {zeroSum(append([]byte("DIRX"), encode(2, nil)[4:]...)), ErrCorrupt},
		"version 5":          {zeroSum(v5), ErrUnsupported},
		"required extension": {encode(2, sample, "abcd"), ErrUnsupported},
		"huge count":         {zeroSum(append(append([]byte("DIRC\x00\x00\x00\x02"), 0xff, 0xff, 0xff, 0xff), make([]byte, 100)...)), ErrCorrupt},
		"empty path":         {encode(2, []string{"a", ""}), ErrCorrupt},
		"extension size":     {zeroSum(append(encode(2, sample)[:len(encode(2, sample))-sha1Size], "TREE\xff\xff\xff\xff"+string(make([]byte, sha1Size))...)), ErrCorrupt},
	} {
		t.Run(name, func(t *testing.T) {
			ix, err := parseIndex(tc.data, sha1Size)
			if !errors.Is(err, tc.want) || ix != nil {
				t.Fatalf("parseIndex = %v, %v; want nil, %v", ix, err, tc.want)
			}
		})
	}
}

// TestParseIndexEveryPrefix cuts a valid index at every length; with the
// checksum out of the way (zeroed), each cut must still be ErrCorrupt.
func TestParseIndexEveryPrefix(t *testing.T) {
	for _, v := range []int{2, 4} {
		full := encode(v, sample)
		body := full[:len(full)-sha1Size]
		for n := 0; n < len(body); n++ {
			data := append(append([]byte(nil), body[:n]...), make([]byte, sha1Size)...)
			if ix, err := parseIndex(data, sha1Size); !errors.Is(err, ErrCorrupt) || ix != nil {
				t.Fatalf("v%d cut at %d of %d: %v, %v; want nil, ErrCorrupt", v, n, len(body), ix, err)
			}
		}
	}
}

func TestVarint(t *testing.T) {
	for _, tc := range []struct {
		in   []byte
		v    uint64
		used int
	}{
		{[]byte{0}, 0, 1},
		{[]byte{0x7f}, 127, 1},
		{[]byte{0x80, 0x00}, 128, 2},
		{[]byte{0x80, 0x7f}, 255, 2},
		{[]byte{0x80}, 0, 0},
		{nil, 0, 0},
	} {
		if v, n := varint(tc.in); v != tc.v || n != tc.used {
			t.Errorf("varint(%x) = %d, %d; want %d, %d", tc.in, v, n, tc.v, tc.used)
		}
	}
}

func TestConfigValue(t *testing.T) {
	cfg := "[core]\n\tobjectformat = md5\n[extensions]\n\tobjectFormat = SHA256 ; comment\n[remote \"x\"]\n\tobjectformat = no\n"
	if got := configValue([]byte(cfg), "extensions", "objectformat"); got != "sha256" {
		t.Errorf("configValue = %q, want sha256", got)
	}
	if got := configValue([]byte("[core]\nbare = false\n"), "extensions", "objectformat"); got != "" {
		t.Errorf("configValue = %q, want empty", got)
	}
}

// FuzzParseIndex checks that no input panics and every failure is typed.
// The checksum is zeroed so that mutations reach the entry decoder.
func FuzzParseIndex(f *testing.F) {
	for _, v := range []int{2, 3, 4} {
		f.Add(encode(v, sample, "TREE", "sdir"))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) >= sha1Size {
			clear(data[len(data)-sha1Size:])
		}
		ix, err := parseIndex(data, sha1Size)
		if err != nil {
			if ix != nil || !(errors.Is(err, ErrCorrupt) || errors.Is(err, ErrUnsupported)) {
				t.Fatalf("parseIndex = %v, %v; want nil and a typed cause", ix, err)
			}
		}
	})
}

// BenchmarkParseIndex decodes a 100,000-entry index. The "sha1" case is
// the baseline: hashing the same bytes, which any reader that verifies
// the checksum must pay.
func BenchmarkParseIndex(b *testing.B) {
	names := make([]string, 100_000)
	for i := range names {
		names[i] = fmt.Sprintf("src/module%03d/pkg%02d/file_%05d.go", i/1000, i/100%10, i)
	}
	for _, v := range []int{2, 4} {
		data := encode(v, names)
		b.Run(fmt.Sprint("sha1/v", v), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				sha1.Sum(data)
			}
		})
		b.Run(fmt.Sprint("parse/v", v), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := parseIndex(data, sha1Size); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprint("parse+set/v", v), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ix, err := parseIndex(data, sha1Size)
				if err != nil {
					b.Fatal(err)
				}
				newSet(ix, "src")
			}
		})
	}
}
