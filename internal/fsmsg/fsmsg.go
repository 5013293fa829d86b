// Package fsmsg words file-system facts for river gc's errors[] messages,
// so that scan and sweep (which must not depend on each other) describe
// paths, file kinds and system errors the same way.
package fsmsg

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/sys/unix"
)

// Kind names the file type in st_mode, e.g. "a symlink".
func Kind(mode uint32) string {
	switch mode & unix.S_IFMT {
	case unix.S_IFLNK:
		return "a symlink"
	case unix.S_IFDIR:
		return "a directory"
	case unix.S_IFIFO:
		return "a FIFO"
	case unix.S_IFSOCK:
		return "a socket"
	case unix.S_IFCHR:
		return "a character device"
	case unix.S_IFBLK:
		return "a block device"
	case unix.S_IFREG:
		return "a regular file"
	}
	return "of unknown type"
}

// ErrText renders an error without Go-specific wrapping, e.g. "permission
// denied", so messages are stable and readable.
func ErrText(err error) string {
	var errno unix.Errno
	if errors.As(err, &errno) {
		return errno.Error()
	}
	return err.Error()
}

// Printable returns p with every byte that is not part of valid UTF-8
// written as \xNN; valid text (including a real U+FFFD) is kept.
func Printable(p string) string {
	if utf8.ValidString(p) {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRuneInString(p[i:])
		if r == utf8.RuneError && size == 1 {
			fmt.Fprintf(&b, `\x%02x`, p[i])
		} else {
			b.WriteString(p[i : i+size])
		}
		i += size
	}
	return b.String()
}
