package scan

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/skill"
)

// inPrivateMountNS runs f on a locked OS thread that has its own mount
// namespace (mounts made there are invisible to the rest of the system
// and vanish with the thread, which is never unlocked and so exits with
// its goroutine). It skips the test where unshare is not permitted.
func inPrivateMountNS(t *testing.T, f func() error) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to unshare a mount namespace")
	}
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread dies with us
		if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
			done <- &skipError{err}
			return
		}
		if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
			done <- &skipError{err}
			return
		}
		done <- f()
	}()
	err := <-done
	if s, ok := err.(*skipError); ok {
		t.Skipf("cannot make a private mount namespace: %v", s.err)
	}
	if err != nil {
		t.Fatal(err)
	}
}

type skipError struct{ err error }

func (s *skipError) Error() string { return s.err.Error() }

// TestScanBindMount: a bind mount on the same device is another mount;
// scan lists nothing behind it and says why. The self bind (a directory
// mounted onto itself) has the very same device and inode and differs
// only in its mount id.
func TestScanBindMount(t *testing.T) {
	tests := []struct {
		name, mountAt, source string
		want                  []string
	}{
		{"other directory", ".river/tmp/bind", "elsewhere", []string{".river/tmp/self/own.json", "artifacts/.tmp/keep"}},
		{"onto itself", ".river/tmp/self", ".river/tmp/self", []string{"artifacts/.tmp/keep"}},
		{"scope dir", ".river/tmp", "elsewhere", []string{"artifacts/.tmp/keep"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, "artifacts/.tmp/keep", "x", epoch)
			write(t, root, "elsewhere/foreign.json", "{}", epoch)
			write(t, root, ".river/tmp/self/own.json", "{}", epoch)
			mkdir(t, root, tt.mountAt)
			var res Result
			inPrivateMountNS(t, func() error {
				if err := unix.Mount(filepath.Join(root, tt.source), filepath.Join(root, tt.mountAt), "", unix.MS_BIND, ""); err != nil {
					return &skipError{err}
				}
				var err error
				res, err = scanPath(root, skill.ScopeTmp, Options{Metadata: true})
				return err
			})
			if got := paths(res.Files); !slices.Equal(got, tt.want) {
				t.Errorf("files %q, want %q", got, tt.want)
			}
			if !hasNote(res.Notes, tt.mountAt, NoteOtherMount) {
				t.Errorf("no other-mount note at %s: %+v", tt.mountAt, res.Notes)
			}
			if len(res.Errors) != 0 {
				t.Errorf("errors %+v", res.Errors)
			}
		})
	}
}
