//go:build linux

package sweep

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plangate-gc/plangate-gc/internal/fserr"
)

// linked writes n files into root/a and links each, under the same name,
// into root/b (as cp -al does), and returns the targets of both, sorted.
func linked(t *testing.T, root string, n int) []Target {
	t.Helper()
	var ts []Target
	for i := range n {
		a, b := fmt.Sprintf("a/f%02d", i), fmt.Sprintf("b/f%02d", i)
		write(t, root, a, "x")
		if err := os.MkdirAll(filepath.Join(root, "b"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Link(filepath.Join(root, a), filepath.Join(root, b)); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		ts = append(ts, target(t, root, fmt.Sprintf("a/f%02d", i)), target(t, root, fmt.Sprintf("b/f%02d", i)))
	}
	slices.SortFunc(ts, func(x, y Target) int { return strings.Compare(x.Path, y.Path) })
	return ts
}

// TestLinkedNamesAllDeleted (SPEC B8.1): both names of each file go,
// whichever worker gets to which name first and whether the directories
// are held or not; only the second name of each frees the file.
func TestLinkedNamesAllDeleted(t *testing.T) {
	for _, hold := range [][]string{nil, {"a", "b"}} {
		t.Run(fmt.Sprint(hold), func(t *testing.T) {
			root := t.TempDir()
			ts := linked(t, root, 40)
			rep := del(t, root, ts, Options{Hold: hold})
			if len(rep.Errors) != 0 || len(rep.Deleted) != len(ts) {
				t.Fatalf("deleted %d of %d, errors %v", len(rep.Deleted), len(ts), rep.Errors)
			}
			if len(rep.Linked) != 40 {
				t.Errorf("%d deletions left another link, want 40 (one per file)", len(rep.Linked))
			}
			for _, d := range []string{"a", "b"} {
				if names, _ := os.ReadDir(filepath.Join(root, d)); len(names) != 0 {
					t.Errorf("%s still holds %d entries", d, len(names))
				}
			}
		})
	}
}

// TestLinkedWriteAfterOwnUnlinkIsKept (SPEC B8.1): x and y are targets,
// names of one file, z a third name that is none; x is deleted first
// (one worker, path order), then the file is changed through z before
// y's first check, y held or not: whatever the change — a write, a chmod
// (ctime alone), a new link — y is kept, for the ledger accepts only the
// ctime and link count x's unlink left. A write after y's first check
// and before its rename is seen by the check after the rename. (A chmod
// or a link there, or anything between a held file's check and its
// unlink, is the residual window of every file: docs/safety.md.)
func TestLinkedWriteAfterOwnUnlinkIsKept(t *testing.T) {
	sequential(t)
	changes := map[string]func(t *testing.T, z string){
		"write": func(t *testing.T, z string) {
			f, err := os.OpenFile(z, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString("more")
			f.Close()
		},
		"chmod": func(t *testing.T, z string) {
			if err := os.Chmod(z, 0o600); err != nil {
				t.Fatal(err)
			}
		},
		"link": func(t *testing.T, z string) {
			if err := os.Link(z, z+"2"); err != nil {
				t.Fatal(err)
			}
		},
	}
	for _, name := range []string{"write", "chmod", "link"} {
		for _, when := range []string{"before check", "after check"} {
			for _, held := range []bool{false, true} {
				if when == "after check" && (held || name != "write") {
					continue
				}
				t.Run(fmt.Sprintf("%s %s held=%v", name, when, held), func(t *testing.T) {
					root := t.TempDir()
					write(t, root, "d/x", "x")
					for _, n := range []string{"d/y", "z"} {
						if err := os.Link(filepath.Join(root, "d/x"), filepath.Join(root, n)); err != nil {
							t.Fatal(err)
						}
					}
					ts := []Target{target(t, root, "d/x"), target(t, root, "d/y")}
					hook := func(p string) {
						if p == "d/y" {
							changes[name](t, filepath.Join(root, "z"))
						}
					}
					if when == "before check" {
						testHookBeforeResolve = hook
					} else {
						testHookAfterCheck = hook
					}
					t.Cleanup(func() { testHookBeforeResolve, testHookAfterCheck = nil, nil })
					var opts Options
					if held {
						opts.Hold = []string{"d"}
					}
					rep := del(t, root, ts, opts)
					if !slices.Equal(rep.Deleted, []string{"d/x"}) || len(rep.Errors) != 1 || rep.Errors[0].Path != "d/y" ||
						!errors.Is(rep.Errors[0].Err, fserr.ErrChanged) {
						t.Fatalf("deleted %q, errors %v; want d/x deleted, d/y changed", rep.Deleted, rep.Errors)
					}
					if !exists(root, "d/y") || !exists(root, "z") {
						t.Error("a name of the changed file is gone")
					}
				})
			}
		}
	}
}
