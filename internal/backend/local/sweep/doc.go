//go:build linux

// Package sweep is the destructive file-system side of river gc --force: it
// deletes, race-safely and checking each file alone, exactly the targets it
// is given, puts back files an interrupted run left under a private name, and
// provides the exclusive lock that keeps two --force runs on the same root
// apart (SPEC Parts B and B2).
//
// What sweep must NOT do: it never decides what to delete (the judgement is
// package skill's, the inventory package scan's) and never widens a target
// list. It never follows a symbolic link below the root, never leaves the
// root or its mount, never removes a directory (unlinkat without
// AT_REMOVEDIR; the exceptions are an emptied held directory whose name
// was taken, and the fresh directory of an exchange, below), never
// deletes a file that changed since it was scanned, never overwrites a
// file, never rolls back a successful deletion, and never words a
// message: its errors are *fserr.Error values with typed causes, worded
// by the caller.
//
// # One root
//
// Every call takes the root as a directory descriptor (O_PATH will do),
// opened once by the caller; the root's path is never looked up again, so
// re-pointing it mid-run changes nothing. Lock takes flock(2) on a
// read-only descriptor of that same directory.
//
// # Deletion protocol
//
// For each target:
//
//  1. The parent directory is resolved from the root descriptor with
//     openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS
//     | RESOLVE_NO_XDEV), or, where openat2 is unavailable, one
//     openat(O_PATH | O_NOFOLLOW | O_DIRECTORY) per component, each
//     checked with statx to be a directory on the root's mount (mount id,
//     STATX_MNT_ID; st_dev where the kernel gives no mount id). A bind
//     mount of the same file system is another mount. The descriptor
//     serves the rest of the target's run (below).
//  2. statx(name, AT_SYMLINK_NOFOLLOW) must show a regular file on the
//     root's mount with the scanned device, inode, size, mtime and ctime
//     (nanoseconds).
//  3. renameat2(name → PrivatePrefix+name, RENAME_NOREPLACE) in the same
//     directory. From now on nobody can slip another file under the name
//     that is about to be unlinked: a file renamed onto or created at the
//     original name is simply not ours and stays. An existing private name
//     is never replaced (fserr.ErrPrivateExists, nothing deleted).
//  4. statx(private name) must still show the same device, inode, size
//     and mtime (not ctime: the rename itself sets it); then
//     unlinkat(private name). Otherwise the file is renamed back with
//     RENAME_NOREPLACE; if its original name was taken meanwhile it stays
//     under the private name and the error is an *fserr.HeldError.
//
// That is four system calls per file (statx, renameat2, statx, unlinkat)
// plus one openat2 and one close per run; none can go: step 2 is the only
// ctime comparison, step 4 the only check after the name is private.
//
// # Hard links
//
// A file with other names in the run (cp -al trees) changes under step 3
// and 4 of its first name: ctime and link count. Step 2 of a later name
// then accepts a ctime that differs from the scanned one only when it,
// and the link count, are exactly what the file showed just after the
// run's own last unlink of one of its names — read through an O_PATH
// descriptor opened on that name before its unlink (links.go) — and
// size and mtime are the scanned ones. The names of one such file are
// handled one at a time (a per-file lock from step 2 to the unlink), so
// no check falls between another name's rename and its unlink. Files
// with one link whose ctime is the scanned one take no lock and no extra
// call.
//
// # Held directories
//
// Options.Hold names directories whose every entry, when scanned, was a
// target or such a directory (package gc decides, from the scan). For
// such a directory H the name to protect is H's, not each file's: once H
// is renamed, no path through H's name reaches its files.
//
//  1. Once every target below H is journaled (Intend batches are never
//     cut inside H) and a worker begins H's first run, H's parent is
//     resolved as in step 1, H is renamed to PrivatePrefix+H there with
//     RENAME_NOREPLACE, and the private name is opened
//     O_PATH|O_NOFOLLOW|O_DIRECTORY and statx'd: a directory on the root's
//     mount. Anything else (a symlink or a file put at H's name since the
//     scan) is renamed back at once and H's targets take the per-file
//     protocol above; so do they when H cannot be renamed (its private
//     name is taken, the name is too long, no renameat2).
//  2. Each target below H is resolved from H's descriptor (openat2
//     RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS|RESOLVE_NO_MAGICLINKS|
//     RESOLVE_NO_XDEV, or the openat chain), statx'd against the whole
//     scanned identity — ctime included, since no rename of the file has
//     changed it — and unlinked. A file that differs stays where it is.
//  3. When the last run below H ends (or Delete stops: a done context, a
//     failed Intend), H is renamed back with RENAME_NOREPLACE. If its
//     name was taken meanwhile (a writer's mkdir -p), the new directory
//     keeps it: an empty H is removed (it held only what was deleted);
//     otherwise, when the name is a directory reached without a symlink
//     and holding no .git, each entry left in H is renamed into it under
//     its own name, never over anything (merge.go), and the emptied H is
//     removed; what cannot be moved stays in H under its private name, a
//     *fserr.HeldDirError in Report.Errors.
//
// So a held file costs two system calls (statx, unlinkat) instead of
// four, and H five in all (openat2, renameat2, openat, statx, renameat2);
// package gc holds only directories with at least eight targets. A
// process killed while H is held leaves PrivatePrefix+H: scan reports it
// as a leftover (never descended), the next --force run puts it back with
// Restore before it judges, and journal recovery looks for journaled
// files in held directories still in place. While H is held, a path
// through its name reaches nothing of it: a writer that opens a file in H
// by its path meanwhile gets ENOENT, or, after its own mkdir -p, writes
// into a new directory that keeps the name ("Residual window"); a process
// with a descriptor or working directory inside H, or that knows the
// private name, still reaches its files.
//
// # Exchanged directories
//
// A directory of Options.Hold that Options.Exchange also lists (river
// gc: a scope's own directory, which writers expect to exist) is not
// renamed: its name must never stop being a directory. For such a
// directory H in its parent P:
//
//  1. Once every target below H is journaled, statx(H) (not followed)
//     must show a directory on the root's mount; mkdirat(P,
//     PrivatePrefix+H, 0700) makes a fresh directory F, which is opened
//     without following, checked the same way, and given H's owner,
//     group, extended attributes (ACLs among them: H opened without
//     following, its inode the one statx'd, flistxattr, fgetxattr,
//     fsetxattr) and mode (fchown, fchmod); renameat2(P, H, P,
//     PrivatePrefix+H, RENAME_EXCHANGE) swaps the two. H's name is now
//     F, empty; H is under the private name, opened O_PATH|O_NOFOLLOW
//     and statx'd: it must be the directory statx'd in step 1 (device
//     and inode). If it is not (swapped in between), a directory on the
//     root's mount there is exchanged back at once and F removed (or
//     merged into it); anything else (a symlink, a mount) is left where
//     it is, F keeps the name, and a mount is an error; the targets take
//     the per-file protocol. So does every target when F cannot be made
//     (the private name is taken) or the file system cannot exchange
//     (EINVAL): F is removed.
//  2. Targets are deleted as in a held directory (statx with ctime,
//     unlinkat), through H's descriptor.
//  3. At the end (or when Delete stops), if the private name still holds
//     H (device and inode) and H's name is a directory on the root's
//     mount, the two are exchanged again: H is back at its name with
//     its inode, mode and whatever stayed in it, and F — with whatever
//     writers made in it meanwhile — is under the private name, removed
//     when empty, else merged into H entry by entry (merge.go: never
//     over anything; where an entry of F that is no directory meets one
//     of H that is no directory, the two are exchanged, so the path
//     shows what it led to last — a writer's rewrite by path — and H's
//     older one stays in F; any other clash stays in F; either way F
//     keeps the private name, a *fserr.HeldDirError). If the name is not such a directory (a
//     symlink or a mount put there), H is put back as a renamed
//     directory is (removed when empty, else it stays: a
//     *fserr.HeldDirError). If the private name no longer holds H (moved
//     away), nothing moves: F keeps the name.
//
// A process killed at any step leaves PrivatePrefix+H holding F (empty)
// or H, and H's name a directory: the next run finds it (package gc
// looks for every scope directory's private name), names it, and Restore
// puts it back as any held directory (an empty one removed, else merged
// into the directory at the name) — so F may keep H's name for good,
// which is why it is given all of H's attributes a directory can be
// given. What it costs: seven calls more than a rename hold (mkdirat,
// openat, statx, flistxattr, close, fchmod and the removal of F; fchown
// only when the owner differs, two per extended attribute), once per
// directory.
//
// # Runs and workers
//
// The targets are sorted by path and cut into runs: consecutive targets in
// one directory, at most 256 of them (a path given twice stays in one
// run). A run resolves its directory once, for its first target, and every
// target of the run uses that descriptor (a failed resolution is every
// target's error). Runs are handed out to a pool of workers, the first
// run of each directory, then the second of each, and so on (a rename
// and an unlink lock their directory: workers in different directories
// do not wait for each other),
// two per CPU Go may use (2 × GOMAXPROCS, at most 8); a worker handles the
// targets of its run in order, so two workers never hold the same path.
// Results are kept per target and listed in path order, so the Report does
// not depend on the schedule; Progress is called on the caller's
// goroutine with a count that only grows. With one run, everything happens
// on the caller's goroutine, strictly in path order.
//
// With Options.Intend (river gc's intent journal, SPEC B4) the sorted
// targets are also cut into batches, and every run belongs to one batch:
// a worker that takes a run of batch k waits until batch k's Intend call
// has returned, and the calls are made in order on a goroutine of their
// own, each as soon as its batch is at most four ahead of the last batch
// a worker has begun (decision 278). The workers are the same for
// every batch; the one who finishes early takes the next batch's run
// instead of waiting for the others (decision 256).
//
// The protocol's system calls take their names from one buffer per
// worker holding PrivatePrefix + name + NUL, the plain name being its
// tail, so no call converts a Go string (decision 257).
//
// Cancellation (the context) is looked at by each worker before each
// target only, so every file in hand — at most one per worker — ends
// deleted or back under its name; targets not reached are counted in
// Report.NotAttempted, so every target is in exactly one of Deleted, Gone,
// Errors and NotAttempted. A process killed between steps 3 and 4 leaves
// the file under its private name; scan reports such leftovers and Restore
// renames them back (never over an existing file).
//
// # One descriptor per directory
//
// Why reusing a run's descriptor keeps SPEC B2:
//
//   - Identity: steps 2 to 4 run for every target, against its name in the
//     descriptor's directory; only a file with the scanned identity is
//     deleted, exactly as with a descriptor opened for it alone.
//   - No symlink, no other mount: the descriptor comes from the same
//     resolution, and it names a directory inode, which cannot turn into a
//     symlink or change mount (rename(2) refuses to move a directory across
//     mounts, bind mounts of one file system included). The path is not
//     looked at again during the run, so a symlink or another directory
//     put at the path later is never followed or entered, and nothing the
//     path now leads to is touched.
//   - What changes is how long one window lasts: a directory moved after
//     it was resolved (the last item under "Residual window") stays in use
//     until its run ends — at most 256 targets, a few milliseconds —
//     instead of for one target. It is the same kind of window: what is
//     deleted is still exactly the scanned files. Comparing the
//     descriptor's identity again (fstat) would prove nothing: the inode
//     of a descriptor never changes, only its place does, and only a new
//     resolution, the cost saved here, would see that.
//   - Workers are to each other what any other process is to the
//     protocol: every rename is RENAME_NOREPLACE and every unlink follows
//     a re-check under the private name. Two workers in one directory
//     (a large directory cut into runs, or a directory moved onto another
//     run's path mid-run) hold different names, and at worst find a target
//     gone or a private name taken.
//
// # Residual window
//
// What the protocol cannot see, precisely:
//
//   - Writes through a descriptor opened before the last check that land
//     between the last statx (step 4) and the unlinkat: the file is
//     unlinked with them. (Unlinking never frees an inode that is still
//     open, so the writer keeps its data until it closes; the name is gone.)
//     The same holds for a change of metadata alone (chmod, chown, a touch
//     that sets the very same mtime) after the rename in step 3, because
//     ctime is not compared in step 4.
//   - A rewrite between step 2 and the rename in step 3 that leaves size
//     and mtime as they were (a same-size write with the mtime set back):
//     only ctime shows it, and ctime cannot be compared after our own
//     rename.
//   - Another file renamed onto the private name between step 4's statx
//     and the unlinkat is unlinked in the scanned file's stead (the
//     scanned file is then gone from the directory as well, replaced).
//   - Names longer than 255 − len(PrivatePrefix) bytes, and file systems
//     without renameat2(RENAME_NOREPLACE) (ENOSYS, EINVAL): such files are
//     checked (step 2) and unlinked under their own name, so a file renamed
//     onto that name between the check and the unlink would be deleted
//     instead. They are counted in Report.Unprotected.
//   - In a held directory: writes through a descriptor opened earlier
//     that land between a file's statx and its unlinkat go with it, and
//     a file renamed onto a name in H between the two by a process
//     holding H (or a directory below it) open, or knowing the private
//     name, is unlinked instead — the per-file protocol's windows, with
//     ctime now compared at the last check. While H is held, opening a
//     path into it fails (ENOENT) for every other process; a directory
//     made at H's name meanwhile keeps it (see "Held directories").
//   - In an exchanged directory: the held directory's windows above, and
//     while it is exchanged a path into it reaches the fresh directory:
//     a file of H read by its path meanwhile is not found (ENOENT), a
//     file a writer makes there is merged back at the end — and between
//     the exchange back and its merge it is the one not found by its
//     path (one rename per entry later), and a writer
//     whose operation spans an exchange (a temporary file made before,
//     renamed after) finds its temporary file gone from its directory
//     (ENOENT on the rename; the file itself is in the other
//     directory, and comes back to the name with it or is merged). A
//     directory renamed onto the private name, or a symlink or mount put
//     at the name, between the last check and an exchange is exchanged
//     in its stead (the check after the first exchange catches the
//     first; after the exchange back, what is under the private name is
//     only ever removed when empty or merged, never followed).
//     A process killed between the exchange back and the merge leaves F under the
//     private name, which Restore cannot tell from a held H: there a
//     clash keeps H's file at the path and the writer's in F.
//   - The parent descriptor pins the directory, not its place: if the
//     directory (or one of its ancestors) is moved elsewhere on the same
//     mount after step 1 of its run — even out of the root — the scanned
//     files (same identity) of the rest of the run are deleted where they
//     now are; files the old path leads to afterwards are not touched.
//
// The package is Linux-specific (openat2, renameat2, statx, flock and the
// *at calls from golang.org/x/sys/unix).
package sweep
