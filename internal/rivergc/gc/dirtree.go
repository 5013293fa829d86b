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

// begin takes the root's flock for --force (sweep.Lock): a second run
// beside a live one is refused, naming the holder the kernel tells.
func (t *dirTree) begin(_ context.Context, cfg Config) (session, error) {
	s := &dirSession{t: t, jn: &runJournal{rootfd: t.fd()}, unlock: func() error { return nil }}
	if cfg.Mode != Force {
		return s, nil
	}
	unlock, err := sweep.Lock(t.fd())
	if errors.Is(err, fserr.ErrLocked) {
		le := &LockedError{Path: t.root.Path}
		le.Holder, le.Known = sweep.LockHolder(t.fd())
		return nil, le
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", t.root.Path, errors.Unwrap(err))
	}
	s.unlock = unlock
	return s, nil
}

// dirSession is a run on a directory root.
type dirSession struct {
	t      *dirTree
	jn     *runJournal
	found  []journal.Recovered
	unlock func() error
}

func (s *dirSession) restore(leftovers []string) sweep.Report {
	return sweep.Restore(s.t.fd(), leftovers)
}

// recover reads the journals below the root (recoverJournals); a
// --force run removes the temporary copies killed rewrites left, named
// by their journals.
func (s *dirSession) recover(_ context.Context, cfg Config, leftovers []string) (*Interrupted, []*fserr.Error, error) {
	interrupted, found, rerr := recoverJournals(cfg, s.t.fd(), leftovers)
	s.found = found
	var errs []*fserr.Error
	if cfg.Mode == Force && interrupted != nil && len(interrupted.Temps) > 0 {
		// A killed rewrite's copy, named by its journal: ours, removed.
		removed, terr := journal.RemoveTemps(s.t.fd(), found)
		interrupted.Temps, interrupted.TempsRemoved = removed, true
		errs = append(errs, fsErrors(terr)...)
	}
	for _, r := range found {
		if r.Unreadable > 0 { // read as far as it goes, then set aside (decision 133)
			errs = append(errs, fserr.New(fserr.OpJournal, r.Journal,
				&fserr.UnreadableJournalError{Lines: r.Unreadable, SetAside: r.SetAside}))
		}
	}
	if rerr != nil {
		errs = append(errs, fsErrors(rerr)...)
	}
	return interrupted, errs, rerr
}

// fsErrors is the *fserr.Error values joined in err.
func fsErrors(err error) []*fserr.Error {
	var out []*fserr.Error
	for _, e := range flatten(err) {
		var fe *fserr.Error
		if errors.As(e, &fe) {
			out = append(out, fe)
		}
	}
	return out
}

func (s *dirSession) change(context.Context) {}

func (s *dirSession) delete(ctx context.Context, cfg Config, targets []sweep.Target, holds []string) (sweep.Report, bool) {
	return deleteJournaled(ctx, cfg, s.jn, targets, holds), false
}

// rewrite replaces the store by identity (rewrite.Replace), its intent
// (op rewrite, with the identity that was read, and the temporary copy)
// synced in the run's journal after the copy is written and before the
// rename, so that the next run names a store a killed run may have
// rewritten.
func (s *dirSession) rewrite(_ context.Context, cfg Config, job rewriteJob) (int, error, bool) {
	var journalErr error
	intend := func(temp, target string, cp rewrite.Ident) error {
		in := journal.Intent{Op: journal.Rewrite, Path: target, Dev: job.ident.Dev, Ino: job.ident.Ino,
			Size: job.ident.Size, MtimeNs: job.ident.MtimeNs}
		tmp := journal.Intent{Op: journal.Temp, Path: temp, Dev: cp.Dev, Ino: cp.Ino, Size: cp.Size, MtimeNs: cp.MtimeNs}
		if journalErr = s.jn.intend([]journal.Intent{in, tmp}); journalErr != nil {
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
		err = &journalFailure{entry: journalError(journalErr, s.jn.rel(), job.Count)}
	}
	return kept, err, false
}

func (s *dirSession) done(context.Context) { s.jn.done() }

func (s *dirSession) removeRunDirs(dirs []runDir) (removed, stay []string) {
	return removeRunDirs(s.t.fd(), dirs)
}

func (s *dirSession) warnings(Config, *Outcome) []Warning { return rootWarnings(s.t.root) }

func (s *dirSession) requests() map[string]int { return nil }

func (s *dirSession) end(_ context.Context, commit bool) error {
	var err error
	switch {
	case commit:
		err = journal.Remove(s.t.fd(), s.found, s.jn.j)
	case s.jn.j != nil:
		s.jn.j.Close()
	}
	s.unlock() //nolint:errcheck // the kernel drops the lock at exit anyway
	return err
}
