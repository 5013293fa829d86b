//go:build linux

// Package ident is what river gc's file-system side must agree on to
// recognise a file: the statx fields every identity check reads, and the
// private name a deletion in progress gives a file. The scanner, the
// deleter and the rewriter import it, so they can never disagree about
// either.
package ident

import (
	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/eintr"
)

// StatxMask is what every statx of river gc asks for: type and mode,
// link count, owner, inode, size, allocated blocks, mtime, ctime and the
// mount id (one mask for all; asking for a field costs nothing).
const StatxMask = unix.STATX_TYPE | unix.STATX_MODE | unix.STATX_NLINK | unix.STATX_UID | unix.STATX_GID |
	unix.STATX_INO | unix.STATX_SIZE | unix.STATX_BLOCKS | unix.STATX_MTIME | unix.STATX_CTIME | unix.STATX_MNT_ID

// PrivatePrefix starts the private name a file is renamed to between the
// last identity check and its unlink (sweep); the scanner reports such a
// file as a leftover of an interrupted run, never as an entry.
const PrivatePrefix = ".river-gc-deleting."

// RewritePrefix starts the name a store's rewrite links its new copy
// under just before renaming it over the store (package rewrite). The
// scanner never counts such a file as an artifact: one a killed run left
// is removed by the next --force run only when that run's journal names
// it with its identity (decision 223).
const RewritePrefix = ".river-gc-rewrite."

// Parent opens the parent directory of the directory fd (openat "..",
// O_PATH, never following a symlink) and describes both. top is true at
// "/" (its own parent), where the caller stops; parent is then closed
// and -1. The caller owns parent and decides what else ends its walk up
// (a mount boundary, a name found).
func Parent(fd int) (parent int, dir, up unix.Stat_t, top bool, err error) {
	if err := eintr.Retry(func() error { return unix.Fstat(fd, &dir) }); err != nil {
		return -1, dir, up, false, err
	}
	parent, err = eintr.Value(func() (int, error) {
		return unix.Openat(fd, "..", unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return -1, dir, up, false, err
	}
	if err := eintr.Retry(func() error { return unix.Fstat(parent, &up) }); err != nil {
		unix.Close(parent)
		return -1, dir, up, false, err
	}
	if up.Dev == dir.Dev && up.Ino == dir.Ino {
		unix.Close(parent)
		return -1, dir, up, true, nil
	}
	return parent, dir, up, false, nil
}
