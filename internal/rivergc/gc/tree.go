//go:build linux

package gc

import (
	"context"

	"github.com/plangate-gc/plangate-gc/internal/backend/local/rewrite"
	"github.com/plangate-gc/plangate-gc/internal/backend/local/sweep"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/scan"
	"github.com/plangate-gc/plangate-gc/skill"
)

// tree is what a run needs of the place its root is, beyond the
// judgement every root shares: how a scope is listed, how a store is
// read, where a single source's link leads, and how a --force run is
// locked, recorded and carried out (session). A root is opened as one
// kind — a directory (OpenRoot: dirTree, descriptors, held directories,
// mounts) or a bucket (OpenObjects: objectTree, conditional requests) —
// and the run never asks which: what only one kind can do has a neutral
// answer on the other (rclone's optional features, checked once where
// the root is opened; SPEC I1).
type tree interface {
	// scanScope lists one scope as the disk scan would (SPEC H2).
	scanScope(cfg Config, scope skill.Scope) scan.Result
	// readStore reads an entry scope's single source: its bytes and the
	// identity its rewrite is conditional on (os.ErrNotExist when absent).
	readStore(cfg Config, rel string) ([]byte, rewrite.Ident, error)
	// linkTarget resolves the single source src when it is a symbolic
	// link (linkTarget in sources.go); link is "" when it is none.
	linkTarget(src string) (target, link string, isDir bool, err error)
	// emptiedRunDirs lists the eval-run directories the removals empty
	// (rundirs.go); none where a directory is no object of its own.
	emptiedRunDirs(files []scan.File, removed []skill.Decision, hold bool) []runDir
	// heldDirs lists the directories killed runs held whole (findHeld);
	// none where nothing is held under a private name (a bucket).
	heldDirs(cfg Config, leftovers []string, ex *excludeUse) (held []heldDir, used []string)
	// tag is the identity tag an object was judged by (a bucket's ETag);
	// "" where the scan's own identity is the whole of it (a directory).
	tag(key string) string
	// inFlight reports whether a live --force run holds the root's lock
	// (a dry-run's leftovers are then files in flight).
	inFlight() bool
	// relative turns a command-line path into a root-relative one
	// (--explain); ok is false when it is not below the root.
	relative(rootPath, p string) (rel string, ok bool)
	// kindAt says what rel is below the root, never following it, for
	// an --explain answer about a path nothing judged; known is false
	// where the tree cannot say (a bucket has no directories or links).
	kindAt(rel string) (k fserr.Kind, err error, known bool)
	// begin starts a run: for --force it takes the root's lock (a
	// *LockedError when another run holds it).
	begin(ctx context.Context, cfg Config) (session, error)
	// close releases the root.
	close() error
}

// session is one run on a tree: its lock (for --force), the journals
// of killed runs, its own journal, and the deletions and rewrites made
// through them (SPEC B4, H4).
type session interface {
	// restore puts back what a killed run left under private names
	// (never over another file).
	restore(leftovers []string) sweep.Report
	// recover reads the journals of killed runs: what they did, the
	// errors[] entries reading them gave, and, when one could not be
	// read, why (then nothing is deleted).
	recover(ctx context.Context, cfg Config, leftovers []string) (*Interrupted, []*fserr.Error, error)
	// change is called once before the first deletion or rewrite (a
	// bucket asks whether it keeps versions then).
	change(ctx context.Context)
	// delete deletes the targets, each journaled first; uncertain says
	// that some delete may have been acted on although it failed.
	delete(ctx context.Context, cfg Config, targets []sweep.Target, holds []string) (rep sweep.Report, uncertain bool)
	// rewrite writes one store back without its removed entries,
	// journaled first: the kept length, or the failure (a *journalFailure
	// when the intent could not be journaled); uncertain as for delete.
	rewrite(ctx context.Context, cfg Config, job rewriteJob) (kept int, err error, uncertain bool)
	// done tells the next run that the deletions and rewrites ended.
	done(ctx context.Context)
	// removeRunDirs removes the run directories the deletions emptied.
	removeRunDirs(dirs []runDir) (removed, stay []string)
	// warnings are the warnings about the root itself (how it was found,
	// what it cannot protect or free).
	warnings(cfg Config, out *Outcome) []Warning
	// requests counts the requests sent, by kind (nil on disk).
	requests() map[string]int
	// end removes the run's journal and those of killed runs when commit
	// (the record is written and every outcome is known), else keeps
	// them for the next run, and releases the lock.
	end(ctx context.Context, commit bool) error
}

// journalFailure is a rewrite that was not attempted because its intent
// could not be journaled: entry is its errors[] entry.
type journalFailure struct{ entry *fserr.Error }

func (f *journalFailure) Error() string { return f.entry.Error() }

// rewriteStores writes each store back without its removed entries (SPEC
// D5), each journaled first by the session. A store that cannot be
// rewritten (changed since it was read, a journal that cannot be
// written, any other failure) keeps all its entries: its removals move
// back to kept and the failure is an errors[] entry. After an
// interruption no store is rewritten. uncertain says a write failed in a
// way that leaves its outcome unknown.
func (o *Outcome) rewriteStores(ctx context.Context, cfg Config, s session, jobs []rewriteJob) (uncertain bool) {
	for _, job := range jobs {
		var err error
		kept := 0
		if ctx.Err() != nil {
			err = &fserr.InterruptedError{NotAttempted: job.Count}
		} else {
			var u bool
			kept, err, u = s.rewrite(ctx, cfg, job)
			uncertain = uncertain || u
		}
		var jf *journalFailure
		switch {
		case err == nil:
			// The space a rewrite frees is what the file shrank by
			// (entries and the separators between them; SPEC B4).
			o.FreedBytes = o.FreedBytes.Add(uint64(job.Size() - kept))
			continue
		case asJournalFailure(err, &jf):
			o.Errors = append(o.Errors, jf.entry)
		default:
			o.Errors = append(o.Errors, fserr.New(fserr.OpRewrite, job.Path(), err))
		}
		o.keepStore(job.scope)
	}
	return uncertain
}

// asJournalFailure is errors.As for a *journalFailure returned as is.
func asJournalFailure(err error, jf **journalFailure) bool {
	f, ok := err.(*journalFailure)
	*jf = f
	return ok
}
