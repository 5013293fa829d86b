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
// completely (corrupt, truncated, a split index whose shared index is
// missing, an unknown required extension, a file that is not regular or
// larger than it reads) is an *Error, so that the caller can refuse to
// delete anything rather than delete a file git tracks. Versions 2 to 4,
// SHA-1 and SHA-256, sparse and split indexes are read.
//
// Linux only: it relies on O_PATH descriptors and the *at system calls.
package gitindex

import (
	"errors"

	"github.com/plangate-gc/plangate-gc/internal/fserr"
)

// Op names the step of Tracked that failed: river gc's one operation
// type (fserr.Op), so that every file-system error has one shape.
type Op = fserr.Op

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
	// package does not implement (an unknown required extension, version
	// or object format).
	ErrUnsupported = errors.New("unsupported git index feature")
	// ErrNotRegular: a file river gc reads (the index, a ".git" file,
	// "commondir", the config) is a FIFO, device, socket, directory or
	// symlink; it is never opened for reading, so it cannot hang a run.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge: a file is larger than this package reads (the index
	// beyond 1 GiB, a small file beyond 1 MiB).
	ErrTooLarge = errors.New("file too large to read")
)

// Error is one failure of Tracked: an *fserr.Error whose Path is the
// best-known path of the file involved, relative to the root (e.g.
// "../.git/index").
type Error = fserr.Error
