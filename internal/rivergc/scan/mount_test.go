//go:build linux

package scan

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/testtree"

	"github.com/plangate-gc/plangate-gc/skill"
)

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
		// a file mounted over a *.json name: its content is not read, it
		// is not listed (an adversarial review found it judged by the
		// mounted file's metadata)
		{"file", ".river/tmp/self/own.json", "elsewhere/foreign.json", []string{"artifacts/.tmp/keep"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, "artifacts/.tmp/keep", "x", epoch)
			write(t, root, "elsewhere/foreign.json", "{}", epoch)
			write(t, root, ".river/tmp/self/own.json", "{}", epoch)
			if _, err := os.Stat(filepath.Join(root, tt.mountAt)); err != nil {
				mkdir(t, root, tt.mountAt)
			}
			var res Result
			testtree.InPrivateMountNS(t, func() error {
				if err := unix.Mount(filepath.Join(root, tt.source), filepath.Join(root, tt.mountAt), "", unix.MS_BIND, ""); err != nil {
					return &testtree.SkipError{Err: err}
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
