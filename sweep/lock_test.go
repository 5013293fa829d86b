package sweep

import (
	"errors"
	"path/filepath"
	"testing"
)

func TestLock(t *testing.T) {
	root := t.TempDir()
	unlock, err := Lock(root)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"second lock fails fast", func(t *testing.T) {
			if u, err := Lock(root); !errors.Is(err, ErrLocked) {
				if u != nil {
					u()
				}
				t.Fatalf("got %v, want ErrLocked", err)
			}
		}},
		{"other root is independent", func(t *testing.T) {
			u, err := Lock(t.TempDir())
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
			u, err := Lock(root)
			if err != nil {
				t.Fatalf("relock: %v", err)
			}
			if err := u(); err != nil {
				t.Fatal(err)
			}
		}},
		{"missing root is not ErrLocked", func(t *testing.T) {
			_, err := Lock(filepath.Join(root, "nope"))
			if err == nil || errors.Is(err, ErrLocked) {
				t.Fatalf("got %v", err)
			}
		}},
	}
	for _, s := range steps {
		t.Run(s.name, s.run)
	}
}
