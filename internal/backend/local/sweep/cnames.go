//go:build linux

package sweep

import (
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/backend/local/ident"
)

// cnames holds one target's two names as the kernel takes them, in one
// buffer a worker reuses for every target of its run: PrivatePrefix +
// name + NUL, so that the name alone, NUL-terminated too, is its tail.
// The system calls of the protocol go through it without converting a
// Go string (an allocation) per call: four calls per file, 30,000 files
// in issue 27's flat tree (decision 257).
type cnames struct {
	buf []byte
}

// set fills the buffer with name and returns the NUL-terminated private
// name and name.
func (c *cnames) set(name string) (private, plain *byte) {
	c.buf = append(append(append(c.buf[:0], PrivatePrefix...), name...), 0)
	return &c.buf[0], &c.buf[len(PrivatePrefix)]
}

// errnoOf is nil for 0, else the errno itself (as unix's wrappers return
// it), so that callers compare with unix.ENOENT and friends unchanged.
func errnoOf(e unix.Errno) error {
	if e == 0 {
		return nil
	}
	return e
}

// statxAt is unix.Statx(dirfd, name, AT_SYMLINK_NOFOLLOW |
// AT_STATX_SYNC_AS_STAT, ident.StatxMask, stx) for a NUL-terminated name.
func statxAt(dirfd int, name *byte, stx *unix.Statx_t) error {
	_, _, e := unix.Syscall6(unix.SYS_STATX, uintptr(dirfd), uintptr(unsafe.Pointer(name)),
		uintptr(unix.AT_SYMLINK_NOFOLLOW|unix.AT_STATX_SYNC_AS_STAT), uintptr(ident.StatxMask), uintptr(unsafe.Pointer(stx)), 0)
	return errnoOf(e)
}

// renameNoReplace is renameat2(dirfd, from, dirfd, to, RENAME_NOREPLACE)
// for NUL-terminated names in one directory; tests that set renameat2
// get theirs instead.
func renameNoReplace(dirfd int, from, to *byte) error {
	if renameat2 != nil {
		return renameat2(dirfd, unix.BytePtrToString(from), dirfd, unix.BytePtrToString(to), unix.RENAME_NOREPLACE)
	}
	_, _, e := unix.Syscall6(unix.SYS_RENAMEAT2, uintptr(dirfd), uintptr(unsafe.Pointer(from)),
		uintptr(dirfd), uintptr(unsafe.Pointer(to)), uintptr(unix.RENAME_NOREPLACE), 0)
	return errnoOf(e)
}

// renameStrings is renameNoReplace for Go strings (Restore's one call
// per leftover).
func renameStrings(dirfd int, from, to string) error {
	if renameat2 != nil {
		return renameat2(dirfd, from, dirfd, to, unix.RENAME_NOREPLACE)
	}
	return unix.Renameat2(dirfd, from, dirfd, to, unix.RENAME_NOREPLACE)
}

// unlinkAt is unlinkat(dirfd, name, 0) — never AT_REMOVEDIR — for a
// NUL-terminated name.
func unlinkAt(dirfd int, name *byte) error {
	_, _, e := unix.Syscall(unix.SYS_UNLINKAT, uintptr(dirfd), uintptr(unsafe.Pointer(name)), 0)
	return errnoOf(e)
}
