//go:build linux

package scan

import (
	"cmp"
	"slices"
	"strings"
	"sync/atomic"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/backend/local/ident"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
	"github.com/plangate-gc/plangate-gc/skill"
)

// Options tunes a scan. The zero value reads file mtimes only.
type Options struct {
	// Metadata enables the artifact metadata timestamp of SPEC Part B for
	// *.json files, and the run timestamp of SPEC Part B3 in scope evals.
	// River gc sets it unless --timestamp mtime was given; when false every
	// file is judged by its mtime and no file is opened.
	Metadata bool
	// Seen, when set, counts the files found so far, as they are found;
	// it may be read while the scan runs (progress off a terminal).
	Seen *atomic.Int64
	// Dirs fills Result.Dirs (river gc's --force: what it may hold whole).
	Dirs bool
}

// TimestampSource says where File.Timestamp came from, so that --debug and
// the JSON counts can explain why a file was judged old or new.
type TimestampSource string

// The timestamp sources.
const (
	// SourceMetadata: a top-level RFC 3339 field inside a *.json file.
	SourceMetadata TimestampSource = "metadata"
	// SourceRun: the newest metadata timestamp of the eval run the file
	// belongs to (scope evals, artifacts/evals/<run>/..., SPEC Part B3).
	SourceRun TimestampSource = "run"
	// SourceMtime: the file's modification time (the fallback).
	SourceMtime TimestampSource = "mtime"
)

// LeftoverPrefix starts the private name under which package sweep holds a
// file just before unlinking it, or a directory whose files it is
// deleting. A regular file or directory whose name starts with it is the
// leftover of an interrupted deletion: it is reported in
// Result.Leftovers, never as a File, and never descended.
const LeftoverPrefix = ident.PrivatePrefix

// RewriteTempPrefix starts the temporary name of a store rewrite's new
// copy (package rewrite): such a file is never recorded as a File.
const RewriteTempPrefix = ident.RewritePrefix

// File is one regular file of a scope: what the engine judges (Path, Size,
// Timestamp) and what sweep re-checks before deleting it (Dev, Ino, Size,
// MtimeNs, CtimeNs), because the file may change between scan and delete.
type File struct {
	// Path is relative to the root, '/'-separated, valid UTF-8, e.g.
	// ".river/memory/a.json". It may contain a backslash (the engine
	// calls such a path non-canonical; river gc keeps it and warns).
	Path string
	// Size is st_size in bytes.
	Size int64
	// Timestamp is the epoch second the file is judged by: the metadata or
	// run timestamp floored to whole seconds, or the mtime's whole seconds
	// (floored as well, also before 1970).
	Timestamp int64
	// TimestampSource says where Timestamp came from.
	TimestampSource TimestampSource
	// Dev and Ino identify the file as scanned (st_dev, st_ino).
	Dev, Ino uint64
	// MtimeNs is the file's real mtime in nanoseconds since the epoch
	// (st_mtim.tv_sec*1e9 + tv_nsec), even when Timestamp came from
	// metadata. It is an identity value only: for mtimes outside the years
	// 1678–2262 it wraps around int64, deterministically, which is harmless
	// because sweep computes it the same way and compares it together with
	// Dev, Ino and Size.
	MtimeNs int64
	// CtimeNs is st_ctim in nanoseconds, computed like MtimeNs.
	CtimeNs int64
	// Allocated is st_blocks × 512: the bytes the file takes on disk
	// (less than Size for a sparse file, more for a small one), so totals
	// can be compared with du (SPEC B5). 0 when the kernel gives none.
	Allocated int64
}

// Result is the outcome of scanning one scope.
type Result struct {
	// Files holds every regular file found, sorted by Path (byte order).
	Files []File
	// Errors are the problems that made part of the scope unreadable or
	// unlistable, so the inventory may be incomplete (river gc reports
	// them in errors[] and exits 1); sorted by Path, Op, then cause. Op is
	// fserr.OpOpenDir, OpReadDir, OpStat, or OpReadMeta for a *.json file
	// whose metadata could not be read for another reason than permission
	// (the file is not listed, so it is neither judged nor deleted); a
	// name that is not valid UTF-8
	// has cause fserr.ErrNotUTF8 (OpOpenDir for a directory, not
	// descended; OpStat for a file, not listed); an unknown scope is
	// {OpOpenDir, ".", fserr.ErrUnknownScope}.
	Errors []*fserr.Error
	// Notes is what scan deliberately skipped or fell back on, sorted by
	// Path, Kind, then Reason.
	Notes []Note
	// Leftovers are the root-relative paths (sorted) of regular files
	// named LeftoverPrefix + original name, and of directories so named
	// below a recursive scope's directory (not descended): what an
	// interrupted deletion left under its private name, for the caller
	// to restore.
	Leftovers []string
	// NestedRepos are the root-relative paths (sorted) of the directories
	// of the scope, or on the way to it, that hold a ".git" entry: other
	// repositories, which are neither descended into nor listed.
	NestedRepos []string
	// Dirs (with Options.Dirs) are a recursive scope's own directory and
	// the directories below it that directly hold a regular file and were
	// listed to the end without an error, sorted by Path, each with the
	// number of its entries (every name but "." and "..", whatever it
	// is): a directory whose every entry is a file being removed or such
	// a directory may be held whole while its files are deleted (package
	// sweep, Options.Hold; a scope's own is exchanged, Options.Exchange).
	Dirs []Dir
}

// Dir is one directory listed whole: its root-relative path and how many
// entries it had.
type Dir struct {
	Path    string
	Entries int
}

// Scan walks the directories of scope (skill.Scope.Dirs) below the open
// root directory rootfd and returns its regular files. rootfd is any
// descriptor of the root directory (O_PATH is enough); Scan never opens
// the root by path, never closes rootfd, and opens everything relative to
// it. Only review-artifacts is not recursive: it lists the direct children
// of artifacts/ whose names match review-artifact*.json or review-*.md (a
// superset of what the engine accepts, so the engine still decides;
// unrelated files in artifacts/ are neither read nor reported).
//
// A missing scope directory is an empty scope. A scope directory (or a
// parent such as artifacts/) that is a symlink, is not a directory, or is
// on another mount is also treated as empty, with a Note. Scan never fails
// as a whole: an unusable root or an unknown scope is reported as an Error
// with Path ".". Depth is not bounded by the descriptor limit: scan holds
// at most a few hundred descriptors and reopens deeper directories from
// above, checking their identity (stack.go).
func Scan(rootfd int, scope skill.Scope, opts Options) Result {
	return scanWith(rootfd, scope, opts, descriptorBudget(), workers()).finish()
}

// scanWith is Scan with a given descriptor budget and number of examining
// workers; it returns the walker unfinished, so that tests can see how it
// walked.
func scanWith(rootfd int, scope skill.Scope, opts Options, budget, workers int) *walker {
	w := &walker{sink: sink{opts: opts}, scope: scope, budget: budget, workers: workersFor(budget, workers)}
	dirs := scope.Dirs()
	if dirs == nil {
		w.fail(fserr.OpOpenDir, ".", fserr.ErrUnknownScope)
		return w
	}
	w.recursive = scope != skill.ScopeReviewArtifacts
	if !w.recursive {
		w.filter = isReviewArtifactName
	}
	var stx unix.Statx_t
	if err := fstatx(rootfd, &stx); err != nil {
		w.fail(fserr.OpOpenRoot, ".", err)
		return w
	}
	if stx.Mode&unix.S_IFMT != unix.S_IFDIR {
		w.fail(fserr.OpOpenRoot, ".", &fserr.KindError{Kind: fserr.KindOf(uint32(stx.Mode)), Want: fserr.ErrNotDir})
		return w
	}
	w.rootDev, w.rootMnt = devOf(&stx), mntOf(&stx)
	for _, d := range dirs {
		if fd, ok := w.openScopeDir(rootfd, d); ok {
			w.walk(fd, d)
		}
	}
	return w
}

// isReviewArtifactName reports whether a direct child of artifacts/ may be
// in the review-artifacts scope: review-artifact*.json or review-*.md on
// the raw bytes, also under the leftover prefix. NFC normalisation (which
// the engine matches on) only composes characters, and no composition
// yields or removes these ASCII prefixes and suffixes, so this never drops
// a name the engine would accept.
func isReviewArtifactName(name []byte) bool {
	s := string(name)
	s = strings.TrimPrefix(s, LeftoverPrefix)
	return hasAffixes(s, "review-artifact", ".json") || hasAffixes(s, "review-", ".md")
}

func hasAffixes(s, prefix, suffix string) bool {
	return len(s) >= len(prefix)+len(suffix) && strings.HasPrefix(s, prefix) && strings.HasSuffix(s, suffix)
}

// finish applies the eval run timestamps and sorts the result into its
// documented, deterministic order.
func (w *walker) finish() Result {
	sinks := []*sink{&w.sink}
	w.flush()
	if w.pool != nil {
		sinks = append(sinks, w.pool.wait()...)
	}
	w.sink.sort()
	var res Result
	runs := make([][]*File, 0, len(sinks))
	for _, s := range sinks {
		runs = append(runs, s.sorted)
		res.Errors = append(res.Errors, s.errs...)
		res.Notes = append(res.Notes, s.notes...)
		res.Leftovers = append(res.Leftovers, s.leftovers...)
	}
	res.Files = mergeSorted(runs)
	for _, s := range sinks {
		s.files, s.sorted = fileChunks{}, nil
	}
	if w.scope == skill.ScopeEvals && w.opts.Metadata {
		applyRunTimestamps(res.Files)
	}
	slices.SortFunc(res.Errors, func(a, b *fserr.Error) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(string(a.Op), string(b.Op)),
			strings.Compare(a.Err.Error(), b.Err.Error()))
	})
	slices.SortFunc(res.Notes, compareNotes)
	slices.Sort(res.Leftovers)
	res.NestedRepos = slices.Sorted(slices.Values(w.repos))
	slices.SortFunc(w.dirs, func(a, b Dir) int { return strings.Compare(a.Path, b.Path) })
	res.Dirs = w.dirs
	return res
}

// evalsPrefix is the directory of scope evals, with its slash.
const evalsPrefix = "artifacts/evals/"

// runDirs lists the directories of an evals path that may be its run,
// nearest first: each ancestor directory strictly below artifacts/evals/
// ("artifacts/evals/runs/7/x" → "runs/7", "runs"); none for a file
// directly in artifacts/evals/.
func runDirs(p string, yield func(dir string) bool) {
	rest, ok := strings.CutPrefix(p, evalsPrefix)
	if !ok {
		return
	}
	for {
		i := strings.LastIndexByte(rest, '/')
		if i < 0 {
			return
		}
		rest = rest[:i]
		if !yield(rest) {
			return
		}
	}
}

// applyRunTimestamps gives every file of an eval run that has no metadata
// timestamp of its own the run's timestamp (SPEC B3, B5). A file's run is
// the shallowest directory on its path below artifacts/evals/ that
// directly holds a *.json file with a metadata timestamp (a run's
// summary.json, say): artifacts/evals/<run>/ in the flat layout,
// artifacts/evals/runs/<id>/ in a nested one. A file with no such
// directory on its path belongs to its nearest ancestor that holds one
// at any depth (artifacts/evals/<run>/ whose metadata lies in a
// subdirectory). The run's timestamp is the newest metadata timestamp at
// or below the run's directory, so a run is judged as one unit.
func applyRunTimestamps(files []File) {
	newest := map[string]int64{} // directory -> newest metadata timestamp at or below it (lookups only)
	direct := map[string]bool{}  // directories directly holding a metadata timestamp
	for i := range files {
		f := &files[i]
		if f.TimestampSource != SourceMetadata {
			continue
		}
		first := true
		runDirs(f.Path, func(dir string) bool {
			if first {
				direct[dir], first = true, false
			}
			if ts, ok := newest[dir]; !ok || f.Timestamp > ts {
				newest[dir] = f.Timestamp
			}
			return true
		})
	}
	if len(newest) == 0 {
		return
	}
	for i := range files {
		f := &files[i]
		if f.TimestampSource != SourceMtime {
			continue
		}
		run, nearest := "", ""
		runDirs(f.Path, func(dir string) bool {
			if direct[dir] {
				run = dir // the last one seen is the shallowest
			}
			if _, ok := newest[dir]; ok && nearest == "" {
				nearest = dir
			}
			return true
		})
		if run == "" {
			run = nearest
		}
		if ts, ok := newest[run]; ok && run != "" {
			f.Timestamp, f.TimestampSource = ts, SourceRun
		}
	}
}
