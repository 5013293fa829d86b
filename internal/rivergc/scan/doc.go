//go:build linux

// Package scan is the read-only file-system side of river gc: it walks the
// directories of one scope (SPEC Part B, skill.Scope.Dirs) below a
// repository root, given as one open directory descriptor, and returns an
// inventory of the regular files it finds, with the timestamp that river
// gc judges by (metadata, eval run, or mtime) and the identity (device,
// inode, size, mtime, ctime) that package sweep re-checks before it
// deletes anything.
//
// What scan must NOT do: it never deletes, renames or writes anything, and
// it never decides which files to remove — that judgement belongs to package
// skill. It never opens the root by path and never follows a symbolic link
// (not even a scope directory or a parent such as artifacts/ that has
// become one), never opens anything it has seen to be a FIFO, socket or
// device (a scan cannot block, and only reads directories and regular
// *.json files), and never descends into another mount — another file
// system or a bind mount of the same one (statx mount ids; st_dev where
// the kernel reports none), nor reads or lists a file mounted over a name.
// A *.json name that the directory listing
// reported as a regular file is opened (O_NOFOLLOW|O_NONBLOCK|O_NOCTTY)
// before it is described, so one swapped for a FIFO or device in between
// is opened without blocking, seen for what it is, and closed unread.
//
// Its memory is O(files + depth) and it holds a bounded number of
// descriptors whatever the depth (stack.go). One goroutine lists
// directories while a pool, one worker per CPU, examines the regular
// files (pool.go); the result is merged and sorted, so it does not
// depend on scheduling. Files that an interrupted
// deletion left under sweep's private name (LeftoverPrefix) are returned
// apart, as Result.Leftovers.
//
// Everything scan observes is returned as data — Files, typed Errors
// (*fserr.Error), Notes with typed kinds — in a deterministic order, so
// that the caller decides how to word, log and report it. The package is
// Linux-specific (statx, openat and getdents64 through
// golang.org/x/sys/unix).
package scan
