package scan

import (
	"cmp"
	"slices"
	"strings"

	"github.com/plangate-gc/plangate-gc/internal/fsmsg"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/skill"
)

// Options tunes a scan. The zero value reads file mtimes only.
type Options struct {
	// Metadata enables the artifact metadata timestamp of SPEC Part B for
	// *.json files. River gc sets it unless --timestamp mtime was given;
	// when false every file is judged by its mtime and no file is opened.
	Metadata bool
}

// TimestampSource says where File.Timestamp came from, so that --debug can
// explain why a file was judged old or new.
type TimestampSource string

// The two timestamp sources.
const (
	// SourceMetadata: a top-level RFC 3339 field inside a *.json file.
	SourceMetadata TimestampSource = "metadata"
	// SourceMtime: the file's modification time (the fallback).
	SourceMtime TimestampSource = "mtime"
)

// File is one regular file of a scope: what the engine judges (Path, Size,
// Timestamp) and what sweep re-checks before deleting it (Dev, Ino, Size,
// MtimeNs), because the file may change between scan and delete.
type File struct {
	// Path is relative to the root, '/'-separated, valid UTF-8, e.g.
	// ".river/memory/a.json".
	Path string
	// Size is st_size in bytes.
	Size int64
	// Timestamp is the epoch second the file is judged by: the metadata
	// timestamp floored to whole seconds, or the mtime's whole seconds
	// (floored as well, also before 1970).
	Timestamp int64
	// TimestampSource says whether Timestamp came from metadata or mtime.
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
}

// Error is a problem that made part of the scope unreadable or unlistable
// (a directory that cannot be opened or read, a file that cannot be
// stat'ed, a name that is not valid UTF-8). River gc reports these in
// errors[] and exits 1, because the inventory may be incomplete.
type Error struct {
	// Path is root-relative and printable: bytes that are not valid UTF-8
	// are written as \xNN (lower-case hex), everything else is kept as is.
	// A backslash already in a name is not escaped, so the form is for
	// humans and logs, not a key to open the file by.
	Path string
	// Message says what failed, e.g. "cannot open directory: permission
	// denied".
	Message string
}

// Note is something scan deliberately skipped or fell back on (a symlink
// not followed, a FIFO not listed, a mount point not descended, a JSON
// file whose metadata could not be used). Notes are not errors; river gc
// shows them only with --debug. Path is printable like Error.Path.
type Note struct {
	Path    string
	Message string
}

// Result is the outcome of scanning one scope.
type Result struct {
	// Files holds every regular file found, sorted by Path (byte order).
	Files []File
	// Errors is sorted by Path, then Message.
	Errors []Error
	// Notes is sorted by Path, then Message.
	Notes []Note
}

// Dirs returns the root-relative directories a scope covers (SPEC Part B),
// or nil for an unknown scope. It exists so that callers can log what a
// scope means; Scan uses the same table.
func Dirs(scope skill.Scope) []string {
	switch scope {
	case skill.ScopeMemory:
		return []string{".river/memory"}
	case skill.ScopeEvals:
		return []string{"artifacts/evals"}
	case skill.ScopeReviewArtifacts:
		return []string{"artifacts"}
	case skill.ScopeTmp:
		return []string{".river/tmp", "artifacts/.tmp"}
	}
	return nil
}

// Scan walks the directories of scope below root and returns its regular
// files. Only review-artifacts is not recursive: it lists the direct
// children of artifacts/ whose names match review-artifact*.json or
// review-*.md (a superset of what the engine accepts, so the engine still
// decides; unrelated files in artifacts/ are neither read nor reported).
//
// A missing scope directory is an empty scope. A scope directory (or a
// parent such as artifacts/) that is a symlink, is not a directory, or is
// on another file system is also treated as empty, with a Note. Root
// itself is opened as given (a symlinked --root is the caller's choice).
// Scan never fails as a whole: an unreadable root or an unknown scope is
// reported as an Error with Path ".". It holds one open descriptor per
// directory level while descending, so depth is bounded by the file
// descriptor limit (a deeper directory becomes an Error, "too many open
// files").
func Scan(root string, scope skill.Scope, opts Options) Result {
	w := &walker{opts: opts, buf: make([]byte, 32*1024)}
	dirs := Dirs(scope)
	if dirs == nil {
		w.errorf(".", "unknown scope %q", string(scope))
		return w.finish()
	}
	w.filter = nil
	w.recursive = scope != skill.ScopeReviewArtifacts
	if !w.recursive {
		w.filter = isReviewArtifactName
	}
	rootfd, err := openPath(unix.AT_FDCWD, root, false)
	if err != nil {
		w.errorf(".", "cannot open root directory: %s", fsmsg.ErrText(err))
		return w.finish()
	}
	defer unix.Close(rootfd)
	var st unix.Stat_t
	if err := unix.Fstat(rootfd, &st); err != nil {
		w.errorf(".", "cannot stat root directory: %s", fsmsg.ErrText(err))
		return w.finish()
	}
	w.rootDev = uint64(st.Dev)
	for _, d := range dirs {
		if fd, ok := w.openScopeDir(rootfd, d); ok {
			w.walkDir(fd, d)
		}
	}
	return w.finish()
}

// isReviewArtifactName reports whether a direct child of artifacts/ may be
// in the review-artifacts scope: review-artifact*.json or review-*.md on
// the raw bytes. NFC normalisation (which the engine matches on) only
// composes characters, and no composition yields or removes these ASCII
// prefixes and suffixes, so this never drops a name the engine would
// accept.
func isReviewArtifactName(name string) bool {
	return hasAffixes(name, "review-artifact", ".json") || hasAffixes(name, "review-", ".md")
}

func hasAffixes(s, prefix, suffix string) bool {
	return len(s) >= len(prefix)+len(suffix) && strings.HasPrefix(s, prefix) && strings.HasSuffix(s, suffix)
}

// finish sorts the result into its documented, deterministic order.
func (w *walker) finish() Result {
	slices.SortFunc(w.res.Files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	slices.SortFunc(w.res.Errors, func(a, b Error) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(a.Message, b.Message))
	})
	slices.SortFunc(w.res.Notes, func(a, b Note) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(a.Message, b.Message))
	})
	return w.res
}
