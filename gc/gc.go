// Package gc is river gc's run: scan each scope, ask the engine, and with
// --force delete what it decided, per file and race-safely. Data flows one
// way: scan → skill → sweep.
//
// gc decides nothing itself (the verdicts are skill's), words nothing
// (render's job) and parses no flags (cmd/river-gc's job).
package gc

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/scan"
	"github.com/plangate-gc/plangate-gc/skill"
	"github.com/plangate-gc/plangate-gc/sweep"
)

// Mode is "dry-run" or "force", as seed 000 spells them.
type Mode string

// The two modes.
const (
	DryRun Mode = "dry-run"
	Force  Mode = "force"
)

// Config is a validated river gc invocation.
type Config struct {
	Root      string
	Scopes    []skill.Scope // resolved, de-duplicated, in skill.Scopes() order
	Retention skill.Retention
	Now       int64
	Excludes  []string
	Mode      Mode
	// Metadata reads artifact metadata timestamps (--timestamp metadata).
	Metadata bool
	// Debug, when set, receives diagnostic lines (--debug).
	Debug func(format string, args ...any)
	// Progress, when set, is told how far deletion has come.
	Progress func(done, total int)
}

// Error is one entry of errors[]: a file that could not be scanned or
// deleted.
type Error struct {
	Path    string
	Message string
}

// Removed is one entry of removed[]: removed in force mode, would be
// removed in dry-run.
type Removed struct {
	Scope     skill.Scope
	Path      string
	SizeBytes uint64
	Reason    skill.Reason
}

// ScopeOutcome is one scope's judgement and what it kept.
type ScopeOutcome struct {
	Scope     skill.Scope
	Result    skill.Result
	Kept      int
	KeptBytes skill.Bytes
}

// Outcome is the whole run, in the orders of SPEC Part B.
type Outcome struct {
	Mode    Mode
	Scopes  []ScopeOutcome
	Removed []Removed // sorted by path
	Errors  []Error   // sorted by path, then message
}

// ErrLocked means another --force run holds the root; nothing was changed.
var ErrLocked = errors.New("another river gc --force run holds the lock on this root")

// Run executes river gc. In force mode it holds the root's lock for the
// whole run; the error is ErrLocked (wrapped) or a failure to lock. Per-file
// problems are Outcome.Errors, never an error.
func Run(cfg Config) (Outcome, error) {
	rootfd := -1
	if cfg.Mode == Force {
		// For now only the lock and the deletions use this descriptor; the
		// one-root rewiring (SPEC B2) is the lead's.
		fd, err := unix.Open(cfg.Root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return Outcome{}, fmt.Errorf("lock %s: cannot open root directory: %w", cfg.Root, err)
		}
		defer unix.Close(fd)
		rootfd = fd
		unlock, err := sweep.Lock(rootfd)
		if errors.Is(err, sweep.ErrLocked) {
			return Outcome{}, fmt.Errorf("lock %s: %w", cfg.Root, ErrLocked)
		}
		if err != nil {
			return Outcome{}, fmt.Errorf("lock %s: %w", cfg.Root, errors.Unwrap(err))
		}
		defer unlock() //nolint:errcheck // the kernel drops the lock at exit anyway
	}
	out := Outcome{Mode: cfg.Mode}
	guards := hardGuards(cfg.Root)
	var targets []sweep.Target
	for _, scope := range cfg.Scopes {
		inv, scanned, errs := inventory(cfg, scope, guards)
		out.Errors = append(out.Errors, errs...)
		res, err := skill.Judge(inv)
		if err != nil {
			return Outcome{}, fmt.Errorf("judging scope %s: %w", scope, err)
		}
		so := ScopeOutcome{Scope: scope, Result: res, Kept: res.Counts.Keep, KeptBytes: res.KeptBytes}
		out.Scopes = append(out.Scopes, so)
		for _, d := range res.Removed {
			f := scanned[d.Path]
			out.Removed = append(out.Removed, Removed{Scope: scope, Path: d.Path, SizeBytes: d.SizeBytes, Reason: d.Reason})
			targets = append(targets, sweep.Target{Path: f.Path, Dev: f.Dev, Ino: f.Ino, Size: f.Size, MtimeNs: f.MtimeNs, CtimeNs: f.CtimeNs})
		}
	}
	if cfg.Mode == Force && len(targets) > 0 {
		rep := sweep.Delete(context.Background(), rootfd, targets, sweep.Options{Progress: cfg.Progress})
		out.apply(rep, cfg.Debug)
	}
	slices.SortFunc(out.Removed, func(a, b Removed) int { return strings.Compare(a.Path, b.Path) })
	slices.SortFunc(out.Errors, func(a, b Error) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(a.Message, b.Message))
	})
	return out, nil
}

// apply narrows removed[] to what was actually deleted; a file that could
// not be deleted is still there, so it counts as kept.
func (o *Outcome) apply(rep sweep.Report, debug func(string, ...any)) {
	deleted := map[string]bool{}
	for _, p := range rep.Deleted {
		deleted[p] = true
	}
	gone := map[string]bool{}
	for _, p := range rep.Gone {
		gone[p] = true
		if debug != nil {
			debug("already gone, skipped: %s", p)
		}
	}
	for _, e := range rep.Errors {
		o.Errors = append(o.Errors, Error{Path: e.Path, Message: sweepMessage(e)})
	}
	done := o.Removed[:0]
	for _, r := range o.Removed {
		switch {
		case deleted[r.Path]:
			done = append(done, r)
		case !gone[r.Path]:
			for i := range o.Scopes {
				if o.Scopes[i].Scope == r.Scope {
					o.Scopes[i].Kept++
					o.Scopes[i].KeptBytes = o.Scopes[i].KeptBytes.Add(r.SizeBytes)
				}
			}
		}
	}
	o.Removed = done
}

// Inventories returns the skill input document of every scope that has at
// least one entry (--emit-inventory), with the scan errors.
func Inventories(cfg Config) ([]skill.Input, []Error) {
	var docs []skill.Input
	var errs []Error
	guards := hardGuards(cfg.Root)
	for _, scope := range cfg.Scopes {
		inv, _, e := inventory(cfg, scope, guards)
		errs = append(errs, e...)
		if len(inv.Paths) > 0 {
			docs = append(docs, inv)
		}
	}
	return docs, errs
}

// maxSize is the largest size and timestamp magnitude the engine accepts
// (SPEC A2: 2^53−1).
const maxSize = 1<<53 - 1

// hardGuards returns the built-in single sources, plus, for each of them
// that is a symlink (artifacts/evals/latest → run-42), the path it points
// to inside the root: seed 000 protects "the current run", not just the
// link, and scanning artifacts/evals/ would otherwise list run-42's files.
// Resolving only reads links; a target outside the root is never scanned
// anyway and is ignored.
func hardGuards(root string) []string {
	var gs []string
	realRoot, rootErr := filepath.EvalSymlinks(root)
	for _, s := range skill.Scopes() {
		src := s.SingleSource()
		if src == "" {
			continue
		}
		gs = append(gs, src)
		link := filepath.Join(root, filepath.FromSlash(src))
		if st, err := os.Lstat(link); rootErr != nil || err != nil || st.Mode()&os.ModeSymlink == 0 {
			continue
		}
		target, err := filepath.EvalSymlinks(link)
		if err != nil {
			continue
		}
		if rel, err := filepath.Rel(realRoot, target); err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, "../") {
			gs = append(gs, filepath.ToSlash(rel))
		}
	}
	return gs
}

// inventory scans one scope and builds its engine input with the given
// hard guards (SPEC Part B).
func inventory(cfg Config, scope skill.Scope, guards []string) (skill.Input, map[string]scan.File, []Error) {
	// For now the root is opened per scope here; the one-root rewiring
	// (SPEC B2) is the lead's.
	rootfd, err := unix.Open(cfg.Root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return skill.Input{Scope: scope}, nil, []Error{{Path: ".", Message: "cannot open root directory: " + err.Error()}}
	}
	defer unix.Close(rootfd)
	res := scan.Scan(rootfd, scope, scan.Options{Metadata: cfg.Metadata})
	in := skill.Input{Scope: scope, Retention: cfg.Retention, Now: cfg.Now, Excludes: cfg.Excludes, HardGuards: guards}
	byPath := make(map[string]scan.File, len(res.Files))
	var errs []Error
	for _, f := range res.Files {
		switch { // only odd file systems get here; the engine could not take them
		case f.Size > maxSize:
			errs = append(errs, Error{Path: f.Path, Message: "size exceeds 2^53-1 bytes; not judged"})
			continue
		case f.Timestamp > maxSize || f.Timestamp < -maxSize:
			errs = append(errs, Error{Path: f.Path, Message: "timestamp beyond ±(2^53-1) seconds; not judged"})
			continue
		}
		byPath[f.Path] = f
		in.Paths = append(in.Paths, skill.Entry{Path: f.Path, SizeBytes: uint64(f.Size), Mtime: f.Timestamp, MtimeKnown: true})
		if cfg.Debug != nil {
			cfg.Debug("%s: %s timestamp %d, %d bytes", f.Path, f.TimestampSource, f.Timestamp, f.Size)
		}
	}
	if cfg.Debug != nil {
		for _, n := range res.Notes {
			cfg.Debug("%s: %s", n.Path, scanNote(scope, n))
		}
	}
	for _, e := range res.Errors {
		errs = append(errs, Error{Path: e.Path, Message: scanMessage(e)})
	}
	return in, byPath, errs
}
