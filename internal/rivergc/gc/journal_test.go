//go:build linux

package gc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plangate-gc/plangate-gc/internal/fserr"
	"github.com/plangate-gc/plangate-gc/skill"
)

const indexRel = ".river/memory/index.json"

// journalRoot is a root with the test index (one removable review
// entry) and one removable file in .river/tmp; cfg judges both scopes.
func journalRoot(t *testing.T) (string, Config) {
	t.Helper()
	root := storeRoot(t, testIndex)
	tmp := filepath.Join(root, ".river/tmp/old")
	if err := os.MkdirAll(filepath.Dir(tmp), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tmp, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(tmp, old, old); err != nil {
		t.Fatal(err)
	}
	cfg := config(t, root, true)
	cfg.Scopes = []skill.Scope{skill.ScopeTmp, skill.ScopeMemoryEntries}
	return root, cfg
}

// TestRewriteIsJournaled (SPEC D5, B4): the rewrite's intent — op
// rewrite, the store's path and the identity river gc read — is in the
// run's one journal, on the disk, when the original is about to be
// replaced, after the run's deletions' intents; the journal is removed
// once the run ends with its record.
func TestRewriteIsJournaled(t *testing.T) {
	root, cfg := journalRoot(t)
	idx, tmp := stat(t, root, indexRel), stat(t, root, ".river/tmp/old")
	var journal, tempRel string
	cfg.Intend = func(temp, target string) error {
		b, err := os.ReadFile(filepath.Join(root, ".river/gc-journal"))
		journal, tempRel = string(b), temp
		return err
	}
	out, err := Run(context.Background(), cfg)
	if err != nil || len(out.Errors) != 0 {
		t.Fatalf("run: %v, errors %v", err, out.Errors)
	}
	// The copy renamed over the index is the file the temp line names
	// (decision 223): journaled before it had a name.
	cp := stat(t, root, indexRel)
	want := fmt.Sprintf("river-gc-journal 1\nrun\ndelete %d %d 1 %d \".river/tmp/old\"\nrewrite %d %d %d %d %q\ntemp %d %d %d %d %q\n",
		tmp.Dev, tmp.Ino, tmp.Mtim.Nano(), idx.Dev, idx.Ino, idx.Size, idx.Mtim.Nano(), indexRel,
		cp.Dev, cp.Ino, cp.Size, cp.Mtim.Nano(), tempRel)
	if journal != want {
		t.Errorf("journal at the rewrite:\n%s\nwant:\n%s", journal, want)
	}
	if got := removedPaths(out); !slices.Equal(got, []string{".river/memory/index.json#old-review", ".river/tmp/old"}) {
		t.Errorf("removed %v", got)
	}
	if _, err := os.Lstat(filepath.Join(root, ".river/gc-journal")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("journal left after the run: %v", err)
	}
}

// stat is lstat(2) of a root-relative path.
func stat(t *testing.T, root, rel string) syscall.Stat_t {
	t.Helper()
	var st syscall.Stat_t
	if err := syscall.Lstat(filepath.Join(root, rel), &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// TestNoJournalWithNothingToDo: a --force run that deletes and rewrites
// nothing creates no journal.
func TestNoJournalWithNothingToDo(t *testing.T) {
	root := storeRoot(t, keptIndex)
	cfg := config(t, root, true)
	cfg.Scopes = []skill.Scope{skill.ScopeTmp, skill.ScopeMemoryEntries}
	cfg.Record = func(Outcome) (bool, error) {
		if _, err := os.Lstat(filepath.Join(root, ".river/gc-journal")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("a journal exists in a run with nothing to do: %v", err)
		}
		return true, nil
	}
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
}

// killAtEnv names, in the test binary's own environment only, where
// TestKilledRunHelper kills itself; killRootEnv is its root.
const killAtEnv, killRootEnv = "RIVER_GC_TEST_KILL_AT", "RIVER_GC_TEST_KILL_ROOT"

// TestKilledRunHelper is the --force run TestSigkilledRewrite kills: run
// as a child process of the test binary, it SIGKILLs itself at the
// point $RIVER_GC_TEST_KILL_AT names — "intent" (the rewrite's intent is
// journaled, the original not yet replaced) or "record" (everything
// done, the record not yet written). Without the variable it is skipped.
func TestKilledRunHelper(t *testing.T) {
	at := os.Getenv(killAtEnv)
	if at == "" {
		t.Skip("run by TestSigkilledRewrite")
	}
	cfg := config(t, os.Getenv(killRootEnv), true)
	cfg.Scopes = []skill.Scope{skill.ScopeTmp, skill.ScopeMemoryEntries}
	kill := func() { syscall.Kill(os.Getpid(), syscall.SIGKILL) } //nolint:errcheck
	switch at {
	case "intent":
		cfg.Intend = func(string, string) error { kill(); return nil }
	case "record":
		cfg.Record = func(Outcome) (bool, error) { kill(); return false, nil }
	}
	Run(context.Background(), cfg) //nolint:errcheck
	t.Fatal("not killed")
}

// TestSigkilledRewrite (SPEC D5, B4): a real --force run SIGKILLed after
// its rewrite completed, before its record, leaves a journal from which
// the next run names the store under interrupted.rewritten (its identity
// is no longer the journaled one) and the deleted file under
// interrupted.removed; killed after the intent but before the rename, the
// store is still the journaled file and is not named, and the next
// --force run rewrites it and removes the journal.
func TestSigkilledRewrite(t *testing.T) {
	for _, at := range []string{"record", "intent"} {
		t.Run(at, func(t *testing.T) {
			root, cfg := journalRoot(t)
			cmd := exec.Command(os.Args[0], "-test.run=^TestKilledRunHelper$", "-test.count=1")
			cmd.Env = append(os.Environ(), killAtEnv+"="+at, killRootEnv+"="+root)
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("the child was not killed: %v", err)
			}
			cfg.Mode = DryRun
			dry, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			in := dry.Interrupted
			if in == nil {
				t.Fatal("no interrupted record after the kill")
			}
			index, _ := os.ReadFile(filepath.Join(root, indexRel))
			switch at {
			case "record":
				if !slices.Equal(in.Rewritten, []string{indexRel}) || !slices.Equal(in.Removed, []string{".river/tmp/old"}) || !in.Finished {
					t.Errorf("interrupted = %+v, want the index rewritten, the file removed, finished", in)
				}
				if string(index) != keptIndex {
					t.Errorf("index after the kill:\n%s", index)
				}
			case "intent":
				if len(in.Rewritten) != 0 || !slices.Equal(in.Removed, []string{".river/tmp/old"}) || in.Finished {
					t.Errorf("interrupted = %+v, want only the file removed, not finished", in)
				}
				if string(index) != testIndex {
					t.Errorf("index after a kill before the rename:\n%s", index)
				}
			}
			cfg.Mode = Force
			out, err := Run(context.Background(), cfg)
			if err != nil || len(out.Errors) != 0 {
				t.Fatalf("the --force run after the kill: %v, %v", err, out.Errors)
			}
			if out.Interrupted == nil || !slices.Equal(out.Interrupted.Rewritten, in.Rewritten) {
				t.Errorf("the --force run reports %+v, the dry-run %+v", out.Interrupted, in)
			}
			if index, _ := os.ReadFile(filepath.Join(root, indexRel)); string(index) != keptIndex {
				t.Errorf("index after the next --force run:\n%s", index)
			}
			if _, err := os.Lstat(filepath.Join(root, ".river/gc-journal")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("journal left after the next --force run: %v", err)
			}
		})
	}
}

// TestStopDuringDeletionsAndRewrite (SPEC D5, B4): a stop signal (the
// context cancelled) during the deletions ends them and leaves the store
// unrewritten, its removals kept and named in errors[]; one during the
// rewrite (after its intent) lets the rewrite in hand finish. Either
// record names both the deletions and the store.
func TestStopDuringDeletionsAndRewrite(t *testing.T) {
	t.Run("during-deletions", func(t *testing.T) {
		root, cfg := journalRoot(t)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		cfg.Progress = func(int, int) { cancel() }
		out, err := Run(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if got := removedPaths(out); !slices.Equal(got, []string{".river/tmp/old"}) {
			t.Errorf("removed %v, want the file deleted before the stop", got)
		}
		var named bool
		for _, e := range out.Errors {
			var ie *fserr.InterruptedError
			if e.Op == fserr.OpRewrite && e.Path == indexRel && errors.As(e.Err, &ie) && ie.NotAttempted == 1 {
				named = true
			}
		}
		if !named {
			t.Errorf("errors %v do not name the store left unrewritten", out.Errors)
		}
		if index, _ := os.ReadFile(filepath.Join(root, indexRel)); string(index) != testIndex {
			t.Errorf("index rewritten after the stop:\n%s", index)
		}
		for _, s := range out.Scopes {
			if s.Scope == skill.ScopeMemoryEntries && (len(s.Removed) != 0 || s.Kept != 2) {
				t.Errorf("memory-entries %+v: want its removal kept", s)
			}
		}
	})
	t.Run("during-rewrite", func(t *testing.T) {
		root, cfg := journalRoot(t)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		cfg.Intend = func(string, string) error { cancel(); return nil }
		out, err := Run(ctx, cfg)
		if err != nil || len(out.Errors) != 0 {
			t.Fatalf("run: %v, errors %v", err, out.Errors)
		}
		if got := removedPaths(out); !slices.Equal(got, []string{".river/memory/index.json#old-review", ".river/tmp/old"}) {
			t.Errorf("removed %v", got)
		}
		if index, _ := os.ReadFile(filepath.Join(root, indexRel)); string(index) != keptIndex {
			t.Errorf("index:\n%s", index)
		}
	})
}

// TestUnreadableJournalStopsTheRewrite (SPEC B4): while a journal cannot
// be read at all (a FIFO at its name), no store is rewritten either; the
// journal error counts the entries not removed. (A journal of a regular
// file with lines not in its format is read as far as it goes and set
// aside instead: TestGarbledJournalIsSetAside.)
func TestUnreadableJournalStopsTheRewrite(t *testing.T) {
	root := storeRoot(t, testIndex)
	if out, err := exec.Command("mkfifo", "-m", "600", filepath.Join(root, ".river/gc-journal")).CombinedOutput(); err != nil {
		t.Fatalf("mkfifo: %v %s", err, out)
	}
	out := forceEntries(t, root)
	var nj *fserr.NotJournaledError
	if len(out.Errors) != 1 || out.Errors[0].Op != fserr.OpJournal || !errors.As(out.Errors[0].Err, &nj) || nj.NotAttempted != 1 {
		t.Errorf("errors %v, want the journal's, counting 1 removal not attempted", out.Errors)
	}
	if index, _ := os.ReadFile(filepath.Join(root, indexRel)); string(index) != testIndex {
		t.Errorf("index rewritten with an unreadable journal:\n%s", index)
	}
	if got := removedPaths(out); len(got) != 0 {
		t.Errorf("removed %v", got)
	}
}

// TestGarbledJournalIsSetAside (decision 133): a foreign or garbled file
// at the journal's name does not stop the run: the store is rewritten,
// errors[] names the journal and where it goes, and after the record the
// file, bytes intact, is at that name.
func TestGarbledJournalIsSetAside(t *testing.T) {
	root := storeRoot(t, testIndex)
	if err := os.WriteFile(filepath.Join(root, ".river/gc-journal"), []byte("not a journal\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out := forceEntries(t, root)
	var ue *fserr.UnreadableJournalError
	if len(out.Errors) != 1 || !errors.As(out.Errors[0].Err, &ue) || ue.Lines != 1 || ue.SetAside != ".river/gc-journal.unreadable-1" {
		t.Errorf("errors %v, want the journal's, 1 line, set aside as .river/gc-journal.unreadable-1", out.Errors)
	}
	if got := removedPaths(out); !slices.Equal(got, []string{".river/memory/index.json#old-review"}) {
		t.Errorf("removed %v", got)
	}
	if b, err := os.ReadFile(filepath.Join(root, ".river/gc-journal.unreadable-1")); err != nil || !strings.HasPrefix(string(b), "not a journal\n") {
		t.Errorf("set aside: %q, %v", b, err)
	}
}

// forceEntries runs --force over the memory-entries scope of root.
func forceEntries(t *testing.T, root string) Outcome {
	t.Helper()
	cfg := config(t, root, true)
	cfg.Scopes = []skill.Scope{skill.ScopeMemoryEntries}
	out, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
