//go:build linux

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// heldWarning is one held-directory warning of a JSON record.
type heldWarning struct{ Kind, Path, Message string }

// heldWarnings lists a JSON record's held-directory warnings.
func heldWarnings(t *testing.T, b []byte) []heldWarning {
	t.Helper()
	var r struct{ Warnings []heldWarning }
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return slices.DeleteFunc(r.Warnings, func(w heldWarning) bool { return w.Kind != "held-directory" })
}

// killedHolding writes n removable files into .river/tmp/big, starts a
// --force run, stops it the moment it holds the directory (nothing
// below deleted yet) and SIGKILLs it there: the files are all under
// .river/tmp/.river-gc-deleting.big, named by the killed run's journal.
func killedHolding(t *testing.T, bin, root string, n int) []string {
	t.Helper()
	before := heldTree(t, root, "big", n)
	r := startStopped(t, bin, root, ".river/tmp", "big", "1+")
	r.signal(syscall.SIGKILL)
	r.cmd.Wait()
	if got := regularFiles(t, root); len(got) != n+1 { // and the journal
		t.Fatalf("after the kill %d files, want the %d held and the journal", len(got), n)
	}
	return before
}

// TestHeldDirectoryAlwaysComesBack (SPEC B8.8): a --force run killed
// while it holds .river/tmp/big leaves 3,000 files under the private
// name. A dry-run names the directory with its count and says the next
// --force puts it back; a --force run that excludes the directory, and
// one whose --scope does not include it, each name it with its count and
// put it back: every file at its own path, nothing under a private name,
// and the exclude counts as matching.
func TestHeldDirectoryAlwaysComesBack(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	const private = ".river/tmp/" + heldPrefix + "big"
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"dry-run", []string{"--json", "--now", future}},
		{"exclude", append([]string{"--exclude", ".river/tmp/big/"}, forceArgs...)},
		{"other scope", append([]string{"--scope", "memory"}, forceArgs...)},
		{"dry-run excluding it", []string{"--json", "--now", future, "--exclude", ".river/tmp/big"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := memDir(t)
			before := killedHolding(t, bin, root, 3000)
			out, code := runGC(t, bin, append(tc.args, "--root", root)...)
			force := slices.Contains(tc.args, "--force")
			ws := heldWarnings(t, out)
			want := "the next --force run puts it back"
			if force {
				want = "put back a directory"
			}
			if len(ws) != 1 || ws[0].Path != private || !strings.Contains(ws[0].Message, "(3000 files)") ||
				!strings.Contains(ws[0].Message, want) {
				t.Errorf("held-directory warnings %+v; want one naming %s, its 3,000 files and %q", ws, private, want)
			}
			if strings.Contains(string(out), `"unused-exclude"`) {
				t.Errorf("an exclude naming the held directory is reported as matching nothing: %.600s", out)
			}
			if rec := readRecord(t, out); code != 0 || len(rec.Errors) != 0 || len(rec.Removed) != 0 {
				t.Errorf("exit %d, errors %+v, %d removed", code, rec.Errors, len(rec.Removed))
			}
			left := regularFiles(t, root)
			left = slices.DeleteFunc(left, func(p string) bool { return p == ".river/gc-journal" })
			switch {
			case !force:
				if _, err := os.Lstat(filepath.Join(root, private)); err != nil {
					t.Errorf("the dry-run touched the held directory: %v", err)
				}
			case !slices.Equal(left, before):
				t.Errorf("after the run %d files at their paths, e.g. %q; want the 3,000 back", len(left), left[:min(3, len(left))])
			case len(privateNames(root)) != 0:
				t.Errorf("left under a private name: %q", privateNames(root))
			}
		})
	}
}
