//go:build linux

package scan

import (
	"unsafe"

	"github.com/plangate-gc/plangate-gc/internal/backend/local/ident"
	"github.com/plangate-gc/plangate-gc/internal/eintr"

	"golang.org/x/sys/unix"
)

// The walker names entries by NUL-terminated byte strings that point into
// the getdents buffer or the pending-directory arena, and calls statx and
// openat directly: the string-taking wrappers of x/sys/unix copy every
// name into a fresh C string, which was one allocation per file.
// SYS_STATX and SYS_OPENAT have these names on every Linux architecture.

// emptyZ is the empty NUL-terminated name used with AT_EMPTY_PATH.
var emptyZ = [1]byte{0}

// statxZ is statx(dirfd, nameZ, AT_SYMLINK_NOFOLLOW|flags): it never
// follows a final symlink. nameZ must end with a NUL byte.
func statxZ(dirfd int, nameZ *byte, flags int, stx *unix.Statx_t) error {
	return eintr.Retry(func() error {
		_, _, e := unix.Syscall6(unix.SYS_STATX, uintptr(dirfd), uintptr(unsafe.Pointer(nameZ)),
			uintptr(unix.AT_SYMLINK_NOFOLLOW|unix.AT_STATX_SYNC_AS_STAT|flags), ident.StatxMask,
			uintptr(unsafe.Pointer(stx)), 0)
		return errnoErr(e)
	})
}

// fstatx describes the open descriptor fd itself.
func fstatx(fd int, stx *unix.Statx_t) error {
	return statxZ(fd, &emptyZ[0], unix.AT_EMPTY_PATH, stx)
}

// openatZ is openat(dirfd, nameZ, flags|O_CLOEXEC).
func openatZ(dirfd int, nameZ *byte, flags int) (int, error) {
	return eintr.Value(func() (int, error) {
		fd, _, e := unix.Syscall6(unix.SYS_OPENAT, uintptr(dirfd), uintptr(unsafe.Pointer(nameZ)),
			uintptr(flags|unix.O_CLOEXEC), 0, 0, 0)
		if e != 0 {
			return -1, e
		}
		return int(fd), nil
	})
}

func errnoErr(e unix.Errno) error {
	if e == 0 {
		return nil
	}
	return e
}

// Flags for the two kinds of open scan performs. A directory is opened
// for listing with O_NOFOLLOW (a name swapped for a symlink fails with
// ELOOP or ENOTDIR); intermediate components of a scope directory (.river,
// artifacts) are only walked through (O_PATH), so a 0711 parent works.
const (
	openDirFlags  = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW
	openPathFlags = unix.O_PATH | unix.O_DIRECTORY | unix.O_NOFOLLOW
	openFileFlags = unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_NOCTTY
)

// identity of a statx result as scan records it. Dev is
// unix.Mkdev(major, minor), which equals the st_dev that stat(2) reports.
func devOf(stx *unix.Statx_t) uint64 { return unix.Mkdev(stx.Dev_major, stx.Dev_minor) }

// ns joins a statx timestamp into nanoseconds since the epoch (wrapping
// deterministically outside 1678–2262, see File.MtimeNs).
func ns(ts unix.StatxTimestamp) int64 { return ts.Sec*1e9 + int64(ts.Nsec) }

// dirent is one record of a getdents64 buffer: the name without its NUL,
// and nameZ, the same bytes with the NUL (for statxZ/openatZ).
type dirent struct {
	name  []byte
	nameZ *byte
	typ   uint8 // d_type: unix.DT_REG, DT_DIR, ... or DT_UNKNOWN
}

// nextDirent parses the linux_dirent64 record at buf[0:] (d_ino u64,
// d_off s64, d_reclen u16, d_type u8, d_name NUL-terminated) and returns
// it with the record length; ok is false on a malformed record.
func nextDirent(buf []byte) (d dirent, reclen int, ok bool) {
	const nameOff = 19
	if len(buf) < nameOff+1 {
		return d, 0, false
	}
	reclen = int(buf[16]) | int(buf[17])<<8 // little- or big-endian below
	if nativeBigEndian {
		reclen = int(buf[16])<<8 | int(buf[17])
	}
	if reclen < nameOff+1 || reclen > len(buf) {
		return d, 0, false
	}
	rec := buf[nameOff:reclen]
	n := 0
	for n < len(rec) && rec[n] != 0 {
		n++
	}
	if n == len(rec) {
		return d, 0, false
	}
	return dirent{name: rec[:n], nameZ: &rec[0], typ: buf[18]}, reclen, true
}

// nativeBigEndian is true on big-endian machines (d_reclen is native).
var nativeBigEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 0
}()
