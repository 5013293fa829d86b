//go:build linux

// Package rewrite reads and replaces a single source below river gc's
// root (SPEC D5): the Riverbed index or the eval ledger, after entries
// were spliced out of it. Every operation is relative to the root
// descriptor; no symlink is followed and no mount is crossed, like
// package sweep.
//
// Replace streams the new bytes into a temporary file in the same
// directory (same mode, fsync), checks that the original is still the file that was
// read (dev, ino, size, mtime, ctime), renames the temporary file over it
// and fsyncs the directory. A changed original is left as it is.
//
// Residual window: a writer that rewrites the original in place (as
// upstream's fs.writeFileSync does) after the identity check and before
// the rename loses that write; the window is two system calls long.
package rewrite

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strconv"
	"strings"
	"sync/atomic"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/backend/local/ident"
	"github.com/plangate-gc/plangate-gc/internal/eintr"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
)

// TempPrefix starts the name of a temporary file Replace writes next to
// the original; it differs from sweep's private prefix, so an interrupted
// rewrite is never "restored" over the original.
const TempPrefix = ident.RewritePrefix

// MaxBytes is the largest store Read accepts (1 GiB).
const MaxBytes = 1 << 30

// ErrTooBig means the store is larger than MaxBytes.
var ErrTooBig = errors.New("larger than 1 GiB")

// Ident is the identity of the file that was read.
type Ident struct {
	Dev, Ino         uint64
	Size             int64
	MtimeNs, CtimeNs int64
	Mode             uint32 // permission bits
	UID, GID         uint32
}

// Options are Replace's hooks.
type Options struct {
	// Intend, when set, is called after the new copy is written and
	// synced and before it gets the name temp (see Replace), with the
	// root-relative paths of the temporary name and the original and the
	// copy's identity; an error stops the rewrite (nothing is left
	// behind). river gc's intent journal records the rewrite and the
	// temporary name there, so that the next run can name a store a
	// killed run replaced and remove a copy it left.
	Intend func(temp, target string, copy Ident) error
}

// Read returns the bytes of the regular file rel (root-relative) and the
// identity of exactly the file read. os.ErrNotExist (wrapped) when it or
// a parent is missing; a *fserr.KindError when it is not a regular file
// (a symlink included); fserr.ErrChanged when it changed while read.
func Read(rootfd int, rel string) ([]byte, Ident, error) {
	dir, name := path.Split(rel)
	dfd, err := openDir(rootfd, strings.TrimSuffix(dir, "/"))
	if err != nil {
		return nil, Ident{}, err
	}
	defer unix.Close(dfd)
	fd, err := eintr.Value(func() (int, error) {
		return unix.Openat(dfd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, Ident{}, kindOr(dfd, name, err)
	}
	f := os.NewFile(uintptr(fd), rel)
	defer f.Close()
	before, err := identOf(fd, "", unix.AT_EMPTY_PATH, rootfd)
	if err != nil {
		return nil, Ident{}, err
	}
	if before.Size > MaxBytes {
		return nil, Ident{}, ErrTooBig
	}
	data := make([]byte, 0, before.Size+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err != nil || n == 0 {
			break
		}
		if len(data) > MaxBytes {
			return nil, Ident{}, ErrTooBig
		}
	}
	after, err := identOf(fd, "", unix.AT_EMPTY_PATH, rootfd)
	if err != nil {
		return nil, Ident{}, err
	}
	if ch := compare(before, after); ch != nil || int64(len(data)) != before.Size {
		return nil, Ident{}, fserr.ErrChanged
	}
	return data, before, nil
}

var seq atomic.Uint64

// withoutTmpfile makes Replace take the named fallback, as on a file
// system without O_TMPFILE (tests of both paths set it).
var withoutTmpfile bool

// maxTempTries bounds the temporary names Replace tries.
const maxTempTries = 16

// Replace replaces rel with the size bytes content writes when rel is
// still the file was describes (see the package doc). The new copy is
// streamed into its file through a bounded buffer, never held whole
// (decision 268): content must write exactly size bytes (a
// *fserr.CopySizeError otherwise, and nothing is replaced); an error
// content or the file system returns while it is written (ENOSPC, EIO)
// stops the rewrite with the original untouched. It returns a
// *fserr.ChangedError when the original changed, and leaves no
// temporary file behind on failure.
//
// The new copy is written, owned, moded and synced as an unnamed file
// (O_TMPFILE), so a run killed while writing it leaves nothing behind;
// only after Options.Intend has recorded its name and identity is it
// linked under a temporary name and renamed over the original. A run
// killed between the link and the rename leaves a copy its journal names
// (decision 223). Where the file system has no O_TMPFILE the copy is
// written under its temporary name from the start (the window of the
// package doc's first version: a kill before Intend leaves an unrecorded
// copy, which the scanner keeps out of every scope).
func Replace(rootfd int, rel string, was Ident, size int64, content io.WriterTo, opt Options) (err error) {
	dir, name := path.Split(rel)
	dfd, err := openDir(rootfd, strings.TrimSuffix(dir, "/"))
	if err != nil {
		return err
	}
	defer unix.Close(dfd)
	fd, err := eintr.Value(func() (int, error) {
		if withoutTmpfile {
			return -1, unix.EOPNOTSUPP
		}
		return unix.Openat(dfd, ".", unix.O_TMPFILE|unix.O_WRONLY|unix.O_CLOEXEC, 0o600)
	})
	var temp string
	named := err != nil
	if named { // no O_TMPFILE here: a named temporary file from the start
		if temp, fd, err = createNamed(dfd, name); err != nil {
			return err
		}
	}
	linked := named
	renamed := false
	defer func() {
		if linked && !renamed {
			unix.Unlinkat(dfd, temp, 0) //nolint:errcheck // best effort: ours, and never the original
		}
	}()
	f := os.NewFile(uintptr(fd), "rewrite of "+rel)
	defer f.Close()
	if err := write(f, size, content, was); err != nil {
		return err
	}
	tid, err := identOf(fd, "", unix.AT_EMPTY_PATH, rootfd)
	if err != nil {
		return err
	}
	if named {
		if opt.Intend != nil {
			if err := opt.Intend(dir+temp, rel, tid); err != nil {
				return err
			}
		}
	} else {
		// Each name is journaled before the copy appears under it; a name
		// another process took first (EEXIST) is never removed by the next
		// run, whose journal names it with the copy's identity, not its.
		for range maxTempTries {
			temp = tempName(name)
			if opt.Intend != nil {
				if err := opt.Intend(dir+temp, rel, tid); err != nil {
					return err
				}
			}
			if err = link(fd, dfd, temp); err != unix.EEXIST {
				break
			}
		}
		if err != nil {
			return err
		}
		linked = true
	}
	now, err := identOf(dfd, name, unix.AT_SYMLINK_NOFOLLOW, rootfd)
	if err != nil {
		return err
	}
	if ch := compare(was, now); ch != nil {
		return ch
	}
	if err := eintr.Retry(func() error { return unix.Renameat(dfd, temp, dfd, name) }); err != nil {
		return err
	}
	renamed = true
	return eintr.Retry(func() error { return unix.Fsync(dfd) })
}

// tempName is the next temporary name for the store name.
func tempName(name string) string {
	temp := fmt.Sprintf("%s%s.%d.%d", TempPrefix, name, os.Getpid(), seq.Add(1))
	if len(temp) > 255 {
		temp = fmt.Sprintf("%s%d.%d", TempPrefix, os.Getpid(), seq.Add(1))
	}
	return temp
}

// createNamed creates a new temporary file beside name. The name is
// predictable: one another process created first (a symlink included) is
// never followed nor removed; the next is tried.
func createNamed(dfd int, name string) (temp string, fd int, err error) {
	for range maxTempTries {
		temp = tempName(name)
		fd, err = eintr.Value(func() (int, error) {
			return unix.Openat(dfd, temp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
		})
		if err != unix.EEXIST {
			break
		}
	}
	return temp, fd, err
}

// link gives the unnamed file fd the name temp in dfd (never over an
// existing name: EEXIST). linkat with AT_EMPTY_PATH needs
// CAP_DAC_READ_SEARCH; without it the file is linked through /proc.
func link(fd, dfd int, temp string) error {
	err := eintr.Retry(func() error { return unix.Linkat(fd, "", dfd, temp, unix.AT_EMPTY_PATH) })
	if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.EPERM) {
		proc := "/proc/self/fd/" + strconv.Itoa(fd)
		err = eintr.Retry(func() error { return unix.Linkat(unix.AT_FDCWD, proc, dfd, temp, unix.AT_SYMLINK_FOLLOW) })
	}
	return err
}

// copyBuffer is the buffer the new copy is streamed through: a store's
// kept spans are often a few bytes each.
const copyBuffer = 64 << 10

// write fills the temporary file: the size bytes of content, the
// original's owner and mode, then fsync. A *fserr.OwnerError when the
// owner cannot be set (decision 108), a *fserr.CopySizeError when content
// wrote another number of bytes than announced.
func write(f *os.File, size int64, content io.WriterTo, was Ident) error {
	file := &countingWriter{w: f}
	buf := bufio.NewWriterSize(file, copyBuffer)
	if _, err := content.WriteTo(buf); err != nil {
		return err
	}
	if err := buf.Flush(); err != nil {
		return err
	}
	if file.n != size {
		return &fserr.CopySizeError{Want: size, Got: file.n}
	}
	if err := f.Chown(int(was.UID), int(was.GID)); err != nil {
		if !errors.Is(err, unix.EPERM) {
			return err
		}
		// Not allowed to chown: acceptable only when the file is already
		// the owner's (the runner owns the store), never a silent change
		// of owner that could lock the store's writer out.
		var st unix.Stat_t
		if err := unix.Fstat(int(f.Fd()), &st); err != nil {
			return err
		}
		if st.Uid != was.UID || st.Gid != was.GID {
			return &fserr.OwnerError{UID: was.UID, GID: was.GID}
		}
	}
	if err := f.Chmod(os.FileMode(was.Mode & 0o777)); err != nil {
		return err
	}
	if was.Mode&^0o777 != 0 { // setuid, setgid, sticky: os.FileMode spells them differently
		if err := unix.Fchmod(int(f.Fd()), was.Mode); err != nil {
			return err
		}
	}
	return f.Sync()
}

// countingWriter counts the bytes that reached w.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
