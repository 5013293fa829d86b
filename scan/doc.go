// Package scan is the read-only file-system side of river gc: it walks the
// directories of one scope (SPEC Part B) below a repository root and returns
// an inventory of the regular files it finds, with the timestamp that river
// gc judges by and the identity (device, inode, size, mtime) that package
// sweep re-checks before it deletes anything.
//
// What scan must NOT do: it never deletes, renames or writes anything, and
// it never decides which files to remove — that judgement belongs to package
// skill. It never follows a symbolic link (not even a scope directory or a
// parent such as artifacts/ that has become one), never opens anything but a
// regular *.json file (a FIFO, socket or device is never opened, so a scan
// cannot block or trigger device side effects), and never descends into a
// directory that lives on another file system than the root (like
// find -xdev).
//
// Everything scan observes is returned as data (Files, Errors, Notes) in a
// deterministic order, so that the caller decides how to log and report it.
// The package is Linux-specific (it walks with openat/fstatat from
// golang.org/x/sys/unix).
package scan
