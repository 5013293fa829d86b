//go:build linux

package sweep

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/fserr"

	"golang.org/x/sys/unix"
)

func TestLock(t *testing.T) {
	root := t.TempDir()
	unlock, err := Lock(openRoot(t, root))
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"second lock fails fast", func(t *testing.T) {
			if u, err := Lock(openRoot(t, root)); !errors.Is(err, fserr.ErrLocked) {
				if u != nil {
					u()
				}
				t.Fatalf("got %v, want fserr.ErrLocked", err)
			}
		}},
		{"other root is independent", func(t *testing.T) {
			u, err := Lock(openRoot(t, t.TempDir()))
			if err != nil {
				t.Fatal(err)
			}
			if err := u(); err != nil {
				t.Fatal(err)
			}
		}},
		{"unlock releases", func(t *testing.T) {
			if err := unlock(); err != nil {
				t.Fatal(err)
			}
			if err := unlock(); err != nil {
				t.Fatalf("second unlock: %v", err)
			}
			u, err := Lock(openRoot(t, root))
			if err != nil {
				t.Fatalf("relock: %v", err)
			}
			if err := u(); err != nil {
				t.Fatal(err)
			}
		}},
		{"bad descriptor is a typed error, not fserr.ErrLocked", func(t *testing.T) {
			_, err := Lock(-1)
			var fe *fserr.Error
			if !errors.As(err, &fe) || fe.Op != fserr.OpLock || !errors.Is(err, unix.EBADF) || errors.Is(err, fserr.ErrLocked) {
				t.Fatalf("got %v", err)
			}
		}},
		{"lock survives a re-pointed root path", func(t *testing.T) {
			base := t.TempDir()
			dir := filepath.Join(base, "repo")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			fd := openRoot(t, dir)
			u, err := Lock(fd)
			if err != nil {
				t.Fatal(err)
			}
			defer u()
			if err := os.Rename(dir, filepath.Join(base, "moved")); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if _, err := Lock(openRoot(t, filepath.Join(base, "moved"))); !errors.Is(err, fserr.ErrLocked) {
				t.Errorf("moved root not locked: %v", err)
			}
			u2, err := Lock(openRoot(t, dir))
			if err != nil {
				t.Fatalf("new directory at the old path: %v", err)
			}
			u2()
		}},
	}
	for _, s := range steps {
		t.Run(s.name, s.run)
	}
}
