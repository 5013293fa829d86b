//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/backend/record"
)

// TestTrackedJournalIsNeverDeleted (attack, SPEC B2 "Git-tracked files
// are never deleted"; decision 346): a repository that commits .river/
// wholesale after a killed run tracks .river/gc-journal. Before, every
// --force run read it as a killed run's journal, wrote its own into it
// and removed it: `git status` showed it deleted after every run. Now
// river gc never writes, renames or removes a journal name the git index
// tracks, whichever of its names (the journal at .river/gc-journal, the
// one at artifacts/.river-gc-journal, one set aside as
// <journal>.unreadable-<n>): --force refuses before it changes anything
// (exit 1, as beside a held lock or an unreadable git index), naming the
// file and what to do; a dry-run
// warns the same words and leaves its exit code as it was. The tracked
// file's content is not read as a killed run's journal.
func TestTrackedJournalIsNeverDeleted(t *testing.T) {
	t.Parallel()
	for _, name := range []string{".river/gc-journal", "artifacts/.river-gc-journal", ".river/gc-journal.unreadable-2"} {
		t.Run(strings.ReplaceAll(name, "/", "|"), func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			files := scopeTree(t, root, 20)
			if err := os.MkdirAll(filepath.Join(root, "artifacts"), 0o755); err != nil {
				t.Fatal(err)
			}
			journal := filepath.Join(root, name)
			// A killed run's journal naming a deletion (the file is gone):
			// were it read, the dry-run would list it as interrupted.
			committed := record.Header + "\nrun\n" +
				string(record.AppendLine(nil, record.Intent{Op: record.Delete, Key: ".river/tmp/gone", Tag: "1 2 3 4"}))
			if err := os.WriteFile(journal, []byte(committed), 0o600); err != nil {
				t.Fatal(err)
			}
			git(t, root, "init", "-q")
			git(t, root, "add", name)
			git(t, root, "commit", "-qm", "a killed run's .river, committed")
			ignore := ".river/gc-journal*"
			if strings.HasPrefix(name, "artifacts/") {
				ignore = "artifacts/.river-gc-journal*"
			}
			same := func(when string) {
				t.Helper()
				if b, err := os.ReadFile(journal); err != nil || string(b) != committed {
					t.Errorf("the tracked %s after %s: %q, %v; want it as committed", name, when, b, err)
				}
				for _, f := range files {
					if _, err := os.Stat(filepath.Join(root, f)); err != nil {
						t.Errorf("%s after %s: %v; want nothing deleted", f, when, err)
					}
				}
				for _, other := range []string{".river/gc-journal", "artifacts/.river-gc-journal"} {
					if _, err := os.Stat(filepath.Join(root, other)); other != name && err == nil {
						t.Errorf("%s after %s: a journal was written", other, when)
					}
				}
			}

			// A dry-run: the warning, the exit code it had, the tracked
			// file not read (no interrupted run) and unchanged.
			stdout, stderr, code := gcRun(t, "--json", "--now", future, "--max-entries", "1000000", "--lang", "en", "--root", root)
			if code != 0 {
				t.Fatalf("dry-run: exit %d, want 0\n%s", code, stderr)
			}
			var rec struct {
				Warnings    []struct{ Kind, Path, Message string } `json:"warnings"`
				Interrupted *struct{ Journals, Removed []string }  `json:"interrupted"`
			}
			if err := json.Unmarshal(stdout, &rec); err != nil {
				t.Fatalf("dry-run record: %v\n%s", err, stdout)
			}
			i := slices.IndexFunc(rec.Warnings, func(w struct{ Kind, Path, Message string }) bool { return w.Kind == "tracked-journal" })
			if i < 0 || rec.Warnings[i].Path != name || !strings.Contains(rec.Warnings[i].Message, "git rm --cached "+name) ||
				!strings.Contains(rec.Warnings[i].Message, "add "+ignore+" to .gitignore") {
				t.Errorf("dry-run warnings %+v; want tracked-journal naming %s, git rm --cached and %s", rec.Warnings, name, ignore)
			}
			if !bytes.Contains(stderr, []byte("--force refuses")) {
				t.Errorf("dry-run stderr does not warn that --force refuses:\n%s", stderr)
			}
			if in := rec.Interrupted; in != nil && (slices.Contains(in.Journals, name) || len(in.Removed) > 0) {
				t.Errorf("dry-run interrupted %+v; the tracked %s is not this root's journal", *in, name)
			}
			same("a dry-run")

			// --force: refused before anything is written or deleted.
			stdout, stderr, code = gcRun(t, append(forceArgs, "--lang", "en", "--root", root)...)
			if code != 1 {
				t.Errorf("--force: exit %d, want 1 (refused, as beside a held lock or an unreadable git index)\n%s", code, stderr)
			}
			want := "river gc: " + name + " is tracked in the git index, but river gc keeps its intent journal under that name" +
				" and never writes, moves or removes a tracked file; nothing was changed. Untrack it (git rm --cached " + name +
				") and ignore it (add " + ignore + " to .gitignore), then run again\n"
			if string(stderr) != want {
				t.Errorf("--force stderr:\n%s\nwant:\n%s", stderr, want)
			}
			if len(stdout) > 0 {
				t.Errorf("--force stdout %q; want no record of a run refused", stdout)
			}
			same("--force")

			// In Japanese too, the file named.
			_, stderr, code = gcRun(t, append(forceArgs, "--lang", "ja", "--root", root)...)
			if code != 1 || !bytes.Contains(stderr, []byte("git rm --cached "+name)) || !bytes.Contains(stderr, []byte("git 管理下")) {
				t.Errorf("--force --lang ja: exit %d, stderr %s", code, stderr)
			}
			same("--force --lang ja")
		})
	}
}
