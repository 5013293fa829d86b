//go:build linux

// Package ident is what river gc's file-system side must agree on to
// recognise a file: the statx fields every identity check reads, and the
// private name a deletion in progress gives a file. The scanner, the
// deleter and the rewriter import it, so they can never disagree about
// either.
package ident

import "golang.org/x/sys/unix"

// StatxMask is what every statx of river gc asks for: type and mode,
// link count, owner, inode, size, mtime, ctime and the mount id (one
// mask for all; asking for a field costs nothing).
const StatxMask = unix.STATX_TYPE | unix.STATX_MODE | unix.STATX_NLINK | unix.STATX_UID | unix.STATX_GID |
	unix.STATX_INO | unix.STATX_SIZE | unix.STATX_MTIME | unix.STATX_CTIME | unix.STATX_MNT_ID

// PrivatePrefix starts the private name a file is renamed to between the
// last identity check and its unlink (sweep); the scanner reports such a
// file as a leftover of an interrupted run, never as an entry.
const PrivatePrefix = ".river-gc-deleting."
