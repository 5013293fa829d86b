//go:build linux

package rewrite

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/fserr"
)

func setup(t *testing.T, body string, mode os.FileMode) (root string, fd int) {
	t.Helper()
	root = t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".river/memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, ".river/memory/index.json")
	if err := os.WriteFile(p, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
	fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	return root, fd
}

func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, TempPrefix+"*"))
	return m
}

func TestReplace(t *testing.T) {
	root, fd := setup(t, "old bytes\n", 0o640)
	data, id, err := Read(fd, ".river/memory/index.json")
	if err != nil || string(data) != "old bytes\n" {
		t.Fatalf("Read = %q, %v", data, err)
	}
	var intended [2]string
	err = Replace(fd, ".river/memory/index.json", id, 4, strings.NewReader("new\n"), Options{Intend: func(temp, target string, cp Ident) error {
		intended = [2]string{temp, target}
		// Journaled before the copy has a name (decision 223): a kill
		// here leaves nothing the journal does not name.
		if _, err := os.Lstat(filepath.Join(root, temp)); !os.IsNotExist(err) {
			t.Errorf("temp name exists before it was intended: %v", err)
		}
		if cp.Size != 4 || cp.Ino == 0 || cp.Mode != 0o640 {
			t.Errorf("copy identity %+v", cp)
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, ".river/memory/index.json")
	got, _ := os.ReadFile(p)
	st, _ := os.Stat(p)
	if string(got) != "new\n" || st.Mode().Perm() != 0o640 {
		t.Errorf("after: %q mode %v", got, st.Mode())
	}
	if intended[1] != ".river/memory/index.json" || filepath.Dir(intended[0]) != ".river/memory" {
		t.Errorf("Intend got %q", intended)
	}
	if l := leftovers(t, filepath.Join(root, ".river/memory")); l != nil {
		t.Errorf("left %v", l)
	}
}

// TestChangedOriginalIsRefused: an append (as upstream's writer makes
// one) between Read and Replace leaves the original as it is.
func TestChangedOriginalIsRefused(t *testing.T) {
	for name, change := range map[string]func(p string) error{
		"appended": func(p string) error {
			f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = f.WriteString("more\n")
			return err
		},
		"replaced": func(p string) error {
			if err := os.WriteFile(p+".new", []byte("old bytes\n"), 0o644); err != nil {
				return err
			}
			return os.Rename(p+".new", p)
		},
		"touched": func(p string) error { return os.Chmod(p, 0o600) }, // ctime only
	} {
		t.Run(name, func(t *testing.T) {
			root, fd := setup(t, "old bytes\n", 0o644)
			_, id, err := Read(fd, ".river/memory/index.json")
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(root, ".river/memory/index.json")
			if err := change(p); err != nil {
				t.Fatal(err)
			}
			before, _ := os.ReadFile(p)
			err = Replace(fd, ".river/memory/index.json", id, 4, strings.NewReader("new\n"), Options{})
			if !errors.Is(err, fserr.ErrChanged) {
				t.Fatalf("err = %v, want changed", err)
			}
			if after, _ := os.ReadFile(p); string(after) != string(before) {
				t.Errorf("original rewritten: %q", after)
			}
			if l := leftovers(t, filepath.Dir(p)); l != nil {
				t.Errorf("left %v", l)
			}
		})
	}
}

func TestIntendErrorStops(t *testing.T) {
	root, fd := setup(t, "old\n", 0o644)
	_, id, _ := Read(fd, ".river/memory/index.json")
	boom := errors.New("journal full")
	if err := Replace(fd, ".river/memory/index.json", id, 4, strings.NewReader("new\n"), Options{Intend: func(string, string, Ident) error { return boom }}); !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(root, ".river/memory/index.json")); string(got) != "old\n" {
		t.Errorf("rewritten: %q", got)
	}
	if l := leftovers(t, filepath.Join(root, ".river/memory")); l != nil {
		t.Errorf("left %v", l)
	}
}

// TestSymlinksAreNotFollowed: a symlinked index or a symlinked parent is
// not read (and so never rewritten).
func TestSymlinksAreNotFollowed(t *testing.T) {
	root, fd := setup(t, "x\n", 0o644)
	outside := filepath.Join(t.TempDir(), "real.json")
	os.WriteFile(outside, []byte("{}"), 0o644)
	os.Mkdir(filepath.Join(root, "artifacts"), 0o755)
	if err := os.Symlink(outside, filepath.Join(root, "artifacts/link.json")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Read(fd, "artifacts/link.json"); !errors.Is(err, fserr.ErrNotRegular) {
		t.Errorf("symlinked file: %v", err)
	}
	if err := os.Symlink(filepath.Join(root, ".river"), filepath.Join(root, "alias")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Read(fd, "alias/memory/index.json"); !errors.Is(err, fserr.ErrNotDir) {
		t.Errorf("symlinked parent: %v", err)
	}
	if _, _, err := Read(fd, ".river/memory/absent.json"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("absent: %v", err)
	}
}

// TestReplaceSkipsTakenTempNames: the temporary name is predictable (pid
// and a counter); names another process created first — here symlinks to
// a file outside the root — are neither followed nor removed, and the
// rewrite takes the next free name instead of failing (decision 111).
func TestReplaceSkipsTakenTempNames(t *testing.T) {
	root, fd := setup(t, "old bytes\n", 0o644)
	outside := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(outside, []byte("victim\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, ".river/memory")
	next := seq.Load()
	var planted []string
	for i := uint64(1); i <= 3; i++ {
		p := filepath.Join(dir, TempPrefix+"index.json."+strconv.Itoa(os.Getpid())+"."+strconv.FormatUint(next+i, 10))
		if err := os.Symlink(outside, p); err != nil {
			t.Fatal(err)
		}
		planted = append(planted, p)
	}
	_, id, err := Read(fd, ".river/memory/index.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := Replace(fd, ".river/memory/index.json", id, 4, strings.NewReader("new\n"), Options{}); err != nil {
		t.Fatalf("Replace = %v, want the next free temporary name", err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "index.json")); string(got) != "new\n" {
		t.Errorf("index = %q", got)
	}
	if got, _ := os.ReadFile(outside); string(got) != "victim\n" {
		t.Errorf("outside file = %q, want it untouched", got)
	}
	for _, p := range planted {
		if fi, err := os.Lstat(p); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s: %v, want the planted symlink left", p, err)
		}
	}
}
