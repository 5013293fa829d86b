// Package sweep is the destructive file-system side of river gc --force: it
// deletes, one file at a time and race-safely, exactly the targets it is
// given, and it provides the exclusive lock that keeps two --force runs on
// the same root apart (SPEC Part B).
//
// What sweep must NOT do: it never decides what to delete (the judgement is
// package skill's, the inventory package scan's) and never widens a target
// list. It never follows a symbolic link below the root, never leaves the
// root, never removes a directory (unlinkat without AT_REMOVEDIR; empty
// directories stay, per the seed), never deletes a file that changed since
// it was scanned, and never rolls back a successful deletion.
//
// Race safety: each target's parent directory is resolved from a descriptor
// of the root without following symlinks — openat2(RESOLVE_BENEATH |
// RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS), or, where openat2 is
// unavailable, a chain of openat(O_NOFOLLOW|O_DIRECTORY) calls, one
// component at a time — then the entry is re-checked with
// fstatat(AT_SYMLINK_NOFOLLOW) against the identity recorded at scan time
// (regular file, device, inode, size, mtime in nanoseconds) and only then
// removed with unlinkat relative to that directory descriptor.
//
// Known limits: between the fstatat re-check and the unlinkat a process
// that can write the parent directory could rename another file onto the
// same name, and that file would be unlinked instead; Linux offers no
// "unlink if still this inode" call, and such a process could delete that
// file itself anyway. The parent descriptor pins the directory, not its
// place: if a process moves the whole directory elsewhere after it was
// opened, the scanned file (same identity) is deleted where it now is.
//
// The package is Linux-specific (openat2, flock and the *at calls from
// golang.org/x/sys/unix).
package sweep
