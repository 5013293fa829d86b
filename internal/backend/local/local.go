//go:build linux

// Package local is river gc's directory root: where a run's root is
// opened and found (root.go), how a path is resolved beneath it by
// identity, never by path strings (resolve.go, links.go), the run
// directories it holds while it deletes (dirs.go), and Dir, the
// backend.Backend of a directory, so that the disk passes the same suite
// as a bucket (backendtest). Its subpackages are the descriptor protocol:
// sweep (deletion by identity, held directories, the lock), rewrite (a
// file read and replaced by identity), journal (the disk's intent
// journal) and ident. A tag is the file's statx identity (device, inode,
// size, mtime, ctime, and the mode and owner a replacement keeps).
//
// Every operation is relative to one root descriptor and follows no
// symlink (O_NOFOLLOW at each component). local decides nothing and words
// nothing; it imports nothing of internal/rivergc.
package local

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/backend"
	"github.com/plangate-gc/plangate-gc/internal/backend/local/rewrite"
	"github.com/plangate-gc/plangate-gc/internal/backend/local/sweep"
	"github.com/plangate-gc/plangate-gc/internal/eintr"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
)

// Dir is a directory root as a backend.
type Dir struct{ fd int }

// Open opens dir as the root (read-only: a file replaced at the top is
// synced through it; the one descriptor every later
// operation is relative to).
func Open(dir string) (*Dir, error) {
	fd, err := eintr.Value(func() (int, error) {
		return unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	return &Dir{fd: fd}, nil
}

// Close releases the root descriptor.
func (d *Dir) Close() error { return unix.Close(d.fd) }

// tagOf encodes an identity as a tag.
func tagOf(id rewrite.Ident) string {
	return fmt.Sprintf("%d:%d:%d:%d:%d:%o:%d:%d", id.Dev, id.Ino, id.Size, id.MtimeNs, id.CtimeNs, id.Mode, id.UID, id.GID)
}

// identOf decodes a tag.
func identOf(tag string) (rewrite.Ident, bool) {
	var id rewrite.Ident
	n, err := fmt.Sscanf(tag, "%d:%d:%d:%d:%d:%o:%d:%d", &id.Dev, &id.Ino, &id.Size, &id.MtimeNs, &id.CtimeNs, &id.Mode, &id.UID, &id.GID)
	return id, err == nil && n == 8
}

// Get reads the file at key (whole, then bounded to limit+1 bytes).
func (d *Dir) Get(_ context.Context, key string, limit int64) ([]byte, backend.Object, error) {
	data, id, err := rewrite.Read(d.fd, key)
	if err != nil {
		return nil, backend.Object{}, mapErr(key, err)
	}
	return data[:min(int64(len(data)), limit+1)], backend.Object{Key: key, Size: id.Size, ModTimeNs: id.MtimeNs, Tag: tagOf(id)}, nil
}

// Put creates the file (O_EXCL, parents made as needed, none followed)
// or replaces it by identity (rewrite.Replace: temp file, check, rename).
func (d *Dir) Put(ctx context.Context, key string, data []byte, c backend.Cond) (backend.Object, error) {
	switch {
	case c.IfAbsent:
		if err := d.create(key, data); err != nil {
			return backend.Object{}, mapErr(key, err)
		}
	case c.IfMatch != "":
		id, ok := identOf(c.IfMatch)
		if !ok {
			return backend.Object{}, fmt.Errorf("put %s: %w", key, backend.ErrChanged)
		}
		if err := rewrite.Replace(d.fd, key, id, int64(len(data)), bytes.NewReader(data), rewrite.Options{}); err != nil {
			return backend.Object{}, mapErr(key, err)
		}
	default:
		return backend.Object{}, fmt.Errorf("put %s: an unconditional write is never made", key)
	}
	_, obj, err := d.Get(ctx, key, 0)
	return obj, err
}

// create writes a new file at key, making its parent directories.
func (d *Dir) create(key string, data []byte) error {
	dir, name := path.Split(key)
	dfd, err := d.openDir(strings.TrimSuffix(dir, "/"), true)
	if err != nil {
		return err
	}
	defer unix.Close(dfd)
	fd, err := eintr.Value(func() (int, error) {
		return unix.Openat(dfd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o644)
	})
	if err != nil {
		return err
	}
	f := os.NewFile(uintptr(fd), key)
	_, err = f.Write(data)
	return errors.Join(err, f.Sync(), f.Close())
}

// openDir opens the directory rel below the root one component at a time
// without following symlinks, making missing ones when mk is set.
func (d *Dir) openDir(rel string, mk bool) (int, error) {
	fd, err := unix.Dup(d.fd)
	if err != nil || rel == "" {
		return fd, err
	}
	for _, c := range strings.Split(rel, "/") {
		next, err := eintr.Value(func() (int, error) {
			return unix.Openat(fd, c, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		})
		if errors.Is(err, unix.ENOENT) && mk {
			if err = unix.Mkdirat(fd, c, 0o755); err == nil || errors.Is(err, unix.EEXIST) {
				next, err = unix.Openat(fd, c, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
			}
		}
		unix.Close(fd)
		if err != nil {
			return -1, err
		}
		fd = next
	}
	return fd, nil
}

// Delete deletes by identity (sweep.Delete: rename to a private name,
// check, unlink).
func (d *Dir) Delete(ctx context.Context, objs []backend.Object) []error {
	errs := make([]error, len(objs))
	var ts []sweep.Target
	at := map[string][]int{}
	for i, o := range objs {
		id, ok := identOf(o.Tag)
		if !ok {
			errs[i] = fmt.Errorf("delete %s: %w", o.Key, backend.ErrChanged)
			continue
		}
		ts = append(ts, sweep.Target{Path: o.Key, Dev: id.Dev, Ino: id.Ino, Size: id.Size, MtimeNs: id.MtimeNs, CtimeNs: id.CtimeNs})
		at[o.Key] = append(at[o.Key], i)
	}
	rep := sweep.Delete(ctx, d.fd, ts, sweep.Options{})
	for _, p := range rep.Gone {
		for _, i := range at[p] {
			errs[i] = backend.ErrNotExist
		}
	}
	for _, e := range rep.Errors {
		for _, i := range at[e.Path] {
			errs[i] = mapErr(e.Path, e.Err)
		}
	}
	return errs
}

// List walks the files below prefix, in key order, skipping symlinks
// and special files.
func (d *Dir) List(ctx context.Context, prefix string, fn func(backend.Object) error) error {
	dir, namePrefix := path.Split(prefix)
	dir = strings.TrimSuffix(dir, "/")
	var objs []backend.Object
	if err := d.walk(dir, namePrefix, &objs); err != nil && !errors.Is(err, unix.ENOENT) && !errors.Is(err, unix.ENOTDIR) {
		return fmt.Errorf("list %s: %w", prefix, err)
	}
	slices.SortFunc(objs, func(a, b backend.Object) int { return strings.Compare(a.Key, b.Key) })
	for _, o := range objs {
		if err := fn(o); err != nil {
			return err
		}
	}
	return nil
}

// walk appends the regular files of dir whose names start with
// namePrefix, and everything below such directories.
func (d *Dir) walk(dir, namePrefix string, objs *[]backend.Object) error {
	fd, err := d.openDir(dir, false)
	if err != nil {
		return err
	}
	rfd, err := unix.Openat(fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	unix.Close(fd)
	if err != nil {
		return err
	}
	f := os.NewFile(uintptr(rfd), dir)
	names, err := f.Readdirnames(-1)
	if err != nil {
		f.Close()
		return err
	}
	for _, n := range names {
		if !strings.HasPrefix(n, namePrefix) || strings.HasPrefix(n, sweep.PrivatePrefix) {
			continue
		}
		var st unix.Stat_t
		if err := unix.Fstatat(rfd, n, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			continue // gone since listed
		}
		key := path.Join(dir, n)
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFREG:
			id := rewrite.Ident{Dev: st.Dev, Ino: st.Ino, Size: st.Size, MtimeNs: st.Mtim.Nano(), CtimeNs: st.Ctim.Nano(),
				Mode: st.Mode &^ unix.S_IFMT, UID: st.Uid, GID: st.Gid}
			*objs = append(*objs, backend.Object{Key: key, Size: st.Size, ModTimeNs: id.MtimeNs, Tag: tagOf(id)})
		case unix.S_IFDIR:
			if err := d.walk(key, "", objs); err != nil {
				f.Close()
				return err
			}
		}
	}
	return f.Close()
}

// mapErr puts a descriptor-side error in backend's words.
func mapErr(key string, err error) error {
	switch {
	case errors.Is(err, unix.ENOENT), errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("%s: %w", key, backend.ErrNotExist)
	case errors.Is(err, unix.EEXIST), errors.Is(err, fserr.ErrChanged):
		return fmt.Errorf("%s: %w (%w)", key, backend.ErrChanged, err)
	}
	return fmt.Errorf("%s: %w", key, err)
}
