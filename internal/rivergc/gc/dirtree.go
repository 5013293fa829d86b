//go:build linux

package gc

import (
	"context"
	"errors"
	"fmt"

	"github.com/plangate-gc/plangate-gc/internal/backend/local"
	"github.com/plangate-gc/plangate-gc/internal/backend/local/journal"
	"github.com/plangate-gc/plangate-gc/internal/backend/local/rewrite"
	"github.com/plangate-gc/plangate-gc/internal/backend/local/sweep"
	"github.com/plangate-gc/plangate-gc/internal/backend/record"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/scan"
	"github.com/plangate-gc/plangate-gc/skill"
)

// dirTree is a directory root: every operation relative to its one
// descriptor (SPEC B2), deletions by identity with held directories
// (package sweep), a flock lock and the disk's intent journal.
type dirTree struct{ root *local.Root }

func (t *dirTree) fd() int { return t.root.FD }

func (t *dirTree) scanScope(cfg Config, scope skill.Scope) scan.Result {
	return scan.Scan(t.fd(), scope, scan.Options{Metadata: cfg.Metadata, Seen: cfg.Seen, Dirs: cfg.Mode == Force})
}

func (t *dirTree) readStore(_ Config, rel string) ([]byte, rewrite.Ident, error) {
	return rewrite.Read(t.fd(), rel)
}

func (t *dirTree) linkTarget(src string) (target, link string, isDir bool, err error) {
	return local.LinkTarget(t.fd(), src)
}

func (t *dirTree) emptiedRunDirs(files []scan.File, removed []skill.Decision, hold bool) []runDir {
	return emptiedRunDirs(t.fd(), files, removed, hold)
}

func (t *dirTree) heldDirs(cfg Config, leftovers []string, ex *excludeUse) ([]heldDir, []string) {
	return findHeld(cfg, t.fd(), leftovers, ex)
}

func (t *dirTree) tag(string) string { return "" }

func (t *dirTree) inFlight() bool {
	held, err := sweep.Held(t.fd())
	return err == nil && held
}

func (t *dirTree) relative(_, p string) (string, bool) { return t.root.Relative(p) }

func (t *dirTree) kindAt(rel string) (fserr.Kind, error, bool) {
	k, err := local.KindAt(t.fd(), rel)
	return k, err, true
}

func (t *dirTree) close() error { return t.root.Close() }

// begin takes the root's flock for --force (local.LockRoot): a second
// run beside a live one is refused, naming the holder the kernel tells.
// A journal name the git index tracks (trackedJournals) is no journal of
// this root's: a dry-run leaves it unread and warns, a --force run is
// refused before it locks, writes or deletes anything: one
// *fserr.Error (fserr.ErrTrackedJournal) per name, joined (decision 346).
func (t *dirTree) begin(_ context.Context, cfg Config) (session, error) {
	tracked := trackedJournals(cfg)
	if cfg.Mode == Force && len(tracked) > 0 {
		errs := make([]error, len(tracked))
		for i, p := range tracked {
			errs[i] = fserr.New(fserr.OpJournal, p, fserr.ErrTrackedJournal)
		}
		return nil, errors.Join(errs...)
	}
	var lock record.Lock
	if cfg.Mode == Force {
		l, err := local.LockRoot(t.fd())
		if errors.Is(err, fserr.ErrLocked) {
			le := &LockedError{Path: t.root.Path}
			le.Holder, le.Known = sweep.LockHolder(t.fd())
			return nil, le
		}
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", t.root.Path, errors.Unwrap(err))
		}
		lock = l
	}
	fd := t.fd()
	s := &dirSession{t: t, jn: journal.New(fd, nil), tracked: tracked}
	s.jn.Foreign(tracked...)
	s.rec = newRunRecord(s.jn, lock, local.FlockProbe{FD: fd}, journal.Path)
	s.rec.removeTemps = func(temps []record.Intent) ([]string, error) { return journal.RemoveTemps(fd, temps) }
	return s, nil
}

// dirSession is a run on a directory root: its record on the root's
// journal file under the root's flock.
type dirSession struct {
	t   *dirTree
	jn  *journal.Journals
	rec *runRecord
	// tracked are the journal names the git index tracks (a dry-run's:
	// --force refuses them), left unread and named in a warning.
	tracked []string
}

func (s *dirSession) restore(leftovers []string) sweep.Report {
	return sweep.Restore(s.t.fd(), leftovers)
}

// recover reads the journals below the root (runRecord.recover); held
// are the leftovers still under their private names (a held directory's
// files are there), where a journaled file may be.
func (s *dirSession) recover(ctx context.Context, cfg Config, leftovers []string) (*Interrupted, []*fserr.Error, error) {
	s.jn.Hold(heldNames(s.t.fd(), leftovers))
	return s.rec.recover(ctx, cfg)
}

func (s *dirSession) change(context.Context) {}

func (s *dirSession) delete(ctx context.Context, cfg Config, targets []sweep.Target, holds []string) (sweep.Report, bool) {
	return deleteJournaled(ctx, cfg, s.t.fd(), s.rec, targets, holds), false
}

// rewrite replaces the store by identity (rewrite.Replace), its intent
// (op rewrite, with the identity that was read, and the temporary copy)
// synced in the run's journal after the copy is written and before the
// rename, so that the next run names a store a killed run may have
// rewritten.
func (s *dirSession) rewrite(ctx context.Context, cfg Config, job rewriteJob) (int, error, bool) {
	var journalErr error
	intend := func(temp, target string, cp rewrite.Ident) error {
		id := job.ident
		in := record.Intent{Op: record.Rewrite, Key: target, Tag: journal.Tag(id.Dev, id.Ino, id.Size, id.MtimeNs)}
		tmp := record.Intent{Op: record.Temp, Key: temp, Tag: journal.Tag(cp.Dev, cp.Ino, cp.Size, cp.MtimeNs)}
		if journalErr = s.rec.intend(context.WithoutCancel(ctx), []record.Intent{in, tmp}); journalErr != nil {
			return journalErr
		}
		if cfg.Intend != nil {
			return cfg.Intend(temp, target)
		}
		return nil
	}
	kept := job.KeptLen()
	// The kept copy is streamed into the new file as it is spliced,
	// never held whole (decision 268).
	err := rewrite.Replace(s.t.fd(), job.Path(), job.ident, int64(kept), job.Job, rewrite.Options{Intend: intend})
	if err != nil && journalErr != nil {
		err = &journalFailure{entry: s.rec.journalError(journalErr, job.Count)}
	}
	return kept, err, false
}

func (s *dirSession) done(ctx context.Context) { s.rec.done(ctx) }

func (s *dirSession) removeRunDirs(dirs []runDir) (removed, stay []string) {
	return removeRunDirs(s.t.fd(), dirs)
}

// warnings are how the root was found (rootWarnings) and each journal
// name the git index tracks, with the pattern that ignores it and the
// names it is set aside under (decision 346).
func (s *dirSession) warnings(Config, *Outcome) []Warning {
	ws := rootWarnings(s.t.root)
	for _, p := range s.tracked {
		ws = append(ws, Warning{Kind: WarnTrackedJournal, Path: p, Target: JournalIgnore(p)})
	}
	return ws
}

// JournalIgnore is the .gitignore pattern that keeps the journal name
// rel (journal.Ours) out of the git index: the journal's name and the
// names it is set aside under ("<journal>*"; decision 346).
func JournalIgnore(rel string) string { return journal.Of(rel) + "*" }

// trackedJournals are, sorted, the names river gc keeps its journal under
// (journal.Ours) that the git index lists as files of their own
// (journal.Listed over gitindex.Set.FilesWithPrefix); a set that cannot
// list them is asked about the two journal names. A bucket has no git
// index and never asks (decision 346).
func trackedJournals(cfg Config) []string {
	switch t := cfg.Tracked.(type) {
	case nil:
		return nil
	case interface{ FilesWithPrefix(string) []string }:
		return journal.Listed(t.FilesWithPrefix)
	default:
		return journal.Listed(func(p string) []string {
			if t.Contains(p) {
				return []string{p}
			}
			return nil
		})
	}
}

func (s *dirSession) requests() map[string]int { return nil }

func (s *dirSession) end(ctx context.Context, commit bool) error { return s.rec.end(ctx, commit) }
