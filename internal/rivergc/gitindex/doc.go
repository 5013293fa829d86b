//go:build linux

// Package gitindex tells river gc which files under its root are tracked
// by git, so that SPEC B2 ("Git-tracked files are never deleted") holds.
//
// Tracked finds the work tree enclosing the root descriptor by walking
// upward with openat(".."), reads that work tree's index file itself (no
// git binary, no library) and returns the tracked paths relative to the
// root as a Set.
//
// The package only reads. It never runs git, never writes to the
// repository and never returns a partial answer: an index it cannot read
// completely (corrupt, truncated, a split index, an unknown required
// extension) is an *Error, so that the caller can refuse to delete
// anything rather than delete a file git tracks.
//
// Linux only: it relies on O_PATH descriptors and the *at system calls.
package gitindex

import "errors"

// Op names the step of Tracked that failed.
type Op string

// The steps of Tracked.
const (
	OpFindWorkTree Op = "find-worktree" // walking up from the root to the .git entry
	OpReadGitFile  Op = "read-gitfile"  // reading a ".git" file ("gitdir: <path>")
	OpReadConfig   Op = "read-config"   // reading the repository config (object format)
	OpReadIndex    Op = "read-index"    // reading <gitdir>/index
	OpParseIndex   Op = "parse-index"   // decoding the index
)

// Sentinel causes, for errors.Is. An errno from the kernel is a cause too.
var (
	// ErrCorrupt: the index (or a .git file) is malformed or truncated,
	// or its checksum does not match.
	ErrCorrupt = errors.New("corrupt git index")
	// ErrUnsupported: the index is well formed but uses a feature this
	// package does not implement (split index, unknown required
	// extension, unknown version or object format).
	ErrUnsupported = errors.New("unsupported git index feature")
	// ErrNotRegular: a file river gc reads (the index, a ".git" file,
	// "commondir", the config) is a FIFO, device, socket, directory or
	// symlink; it is never opened for reading, so it cannot hang a run.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge: a file is larger than this package reads (the index
	// beyond 1 GiB, a small file beyond 1 MiB).
	ErrTooLarge = errors.New("file too large to read")
)

// Error is one failure of Tracked.
type Error struct {
	Op   Op
	Path string // best-known path of the file involved, relative to the root (e.g. "../.git/index")
	Err  error
}

// Error renders a developer-facing English form.
func (e *Error) Error() string {
	return "gitindex: " + string(e.Op) + " " + e.Path + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }
