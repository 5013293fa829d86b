//go:build linux

package local

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/eintr"
)

// maxHops is how many symlinks one resolution follows before it calls
// the chain a loop (the kernel's own limit, 40).
const maxHops = 40

// ErrOutside means a path resolves to something that is not below the
// root (or to the root itself).
var ErrOutside = errors.New("outside the root")

// ident is a file's identity.
type ident struct{ dev, ino uint64 }

func fdIdent(fd int) (ident, error) {
	var st unix.Stat_t
	if err := eintr.Retry(func() error { return unix.Fstat(fd, &st) }); err != nil {
		return ident{}, err
	}
	return ident{st.Dev, st.Ino}, nil
}

// walker state of one resolution: where it stands, and, when that is at
// or below the root, the names from the root down to it.
type resolver struct {
	root   ident
	rootFD int
	cur    int      // O_PATH descriptor of the current directory (owned unless == rootFD)
	inside bool     // cur is the root or below it, reached by the names in stack
	stack  []string // names below the root, when inside
	hops   int
}

func (r *resolver) close() {
	if r.cur >= 0 && r.cur != r.rootFD {
		unix.Close(r.cur)
	}
	r.cur = -1
}

// move makes fd (a directory, owned) the current directory, with name
// pushed ("" for a move up), and recognises the root by identity: a
// directory with the root's (dev, ino) is the root, however it was
// reached (an absolute path, "..", a bind mount of the root), and the
// walk continues beneath the root descriptor itself.
func (r *resolver) move(fd int, name string) error {
	r.close()
	r.cur = fd
	switch {
	case name == "" && r.inside && len(r.stack) > 0:
		r.stack = r.stack[:len(r.stack)-1]
	case name == "" && r.inside:
		r.inside = false // up from the root
	case name != "" && r.inside:
		r.stack = append(r.stack, name)
	}
	id, err := fdIdent(fd)
	if err != nil {
		return err
	}
	if id == r.root {
		r.close()
		r.cur, r.inside, r.stack = r.rootFD, true, r.stack[:0]
	}
	return nil
}

// resolveBeneath follows the path p (a symlink's text, or a command-line
// path) from the directory the resolver stands on, one component at a
// time with openat(O_PATH|O_NOFOLLOW), following symlinks itself (at most
// maxHops) and never through /proc: no path string of the kernel's is
// read, so neither a missing /proc nor a path longer than PATH_MAX
// matters. It returns the root-relative path of what p names, ErrOutside
// when that is not below the root, and ENOENT, ELOOP or ENOTDIR (a
// component that is no directory) as the kernel would. isDir says whether
// the result is a directory. When followLast is false a final symlink is
// not followed.
func (r *resolver) resolve(p string, followLast bool) (rel string, isDir bool, err error) {
	pending := splitPath(p)
	if strings.HasPrefix(p, "/") {
		if err := r.restart(); err != nil {
			return "", false, err
		}
	}
	for len(pending) > 0 {
		c := pending[0]
		pending = pending[1:]
		if c == ".." {
			fd, err := eintr.Value(func() (int, error) {
				return unix.Openat(r.cur, "..", unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
			})
			if err != nil {
				return "", false, err
			}
			if err := r.move(fd, ""); err != nil {
				return "", false, err
			}
			continue
		}
		fd, err := eintr.Value(func() (int, error) {
			return unix.Openat(r.cur, c, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		})
		if err != nil {
			return "", false, err
		}
		var st unix.Stat_t
		if err := eintr.Retry(func() error { return unix.Fstat(fd, &st) }); err != nil {
			unix.Close(fd)
			return "", false, err
		}
		last := len(pending) == 0
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFDIR:
			if err := r.move(fd, c); err != nil {
				return "", false, err
			}
			if last {
				return r.here()
			}
		case unix.S_IFLNK:
			if last && !followLast {
				unix.Close(fd)
				return r.final(c, false)
			}
			text, err := readLink(fd)
			unix.Close(fd)
			if err != nil {
				return "", false, err
			}
			if r.hops++; r.hops > maxHops {
				return "", false, unix.ELOOP
			}
			pending = append(splitPath(text), pending...)
			if strings.HasPrefix(text, "/") {
				if err := r.restart(); err != nil {
					return "", false, err
				}
			}
			if len(pending) == 0 { // a link to "/" or "."
				return r.here()
			}
		default:
			unix.Close(fd)
			if !last {
				return "", false, unix.ENOTDIR
			}
			return r.final(c, false)
		}
	}
	return r.here()
}

// restart moves the resolver to "/" for an absolute path.
func (r *resolver) restart() error {
	fd, err := eintr.Value(func() (int, error) {
		return unix.Open("/", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return err
	}
	r.inside, r.stack = false, r.stack[:0]
	return r.move(fd, "")
}

// here is the current directory as a result.
func (r *resolver) here() (string, bool, error) {
	if !r.inside || len(r.stack) == 0 {
		return "", true, ErrOutside
	}
	return strings.Join(r.stack, "/"), true, nil
}

// final is the non-directory name in the current directory as a result.
func (r *resolver) final(name string, isDir bool) (string, bool, error) {
	if !r.inside {
		return "", isDir, ErrOutside
	}
	return strings.Join(append(slices.Clone(r.stack), name), "/"), isDir, nil
}

// splitPath cuts a path into its components, dropping empty ones and ".".
func splitPath(p string) []string {
	var out []string
	for c := range strings.SplitSeq(p, "/") {
		if c != "" && c != "." {
			out = append(out, c)
		}
	}
	return out
}

// readLink reads the text of the symlink open as an O_PATH descriptor.
func readLink(fd int) (string, error) {
	buf := make([]byte, unix.PathMax)
	n, err := eintr.Value(func() (int, error) { return unix.Readlinkat(fd, "", buf) })
	if err != nil {
		return "", err
	}
	return string(buf[:n]), nil
}

// newResolver stands on the directory dirRel below the root (already
// open as dfd, owned by the resolver from now on).
func newResolver(rootFD int, dfd int, dirRel string) (*resolver, error) {
	id, err := fdIdent(rootFD)
	if err != nil {
		unix.Close(dfd)
		return nil, err
	}
	r := &resolver{root: id, rootFD: rootFD, cur: dfd, inside: true, stack: splitPath(dirRel)}
	if dfd == rootFD {
		r.cur = rootFD
	}
	return r, nil
}

// Relative turns a path given on the command line (relative to the
// working directory, or absolute) into a root-relative one by identity:
// it is walked from the working directory (or "/") component by
// component, and the root is recognised by its (dev, ino) wherever the
// walk meets it. ok is false when the path is not below the root or
// cannot be walked; the final component is not followed and need not
// exist.
func (root *Root) Relative(p string) (rel string, ok bool) { return Relative(root.FD, root.Path, p) }

// Relative is Root.Relative for the root open as rootFD, named rootPath.
func Relative(rootFD int, rootPath, p string) (rel string, ok bool) {
	dir, name := p, ""
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		dir, name = p[:i+1], p[i+1:]
	} else {
		dir, name = ".", p
	}
	fd, err := eintr.Value(func() (int, error) {
		return unix.Open(".", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return "", false
	}
	id, err := fdIdent(rootFD)
	if err != nil {
		unix.Close(fd)
		return "", false
	}
	r := &resolver{root: id, rootFD: rootFD, cur: -1}
	defer r.close()
	below, ok := workDirBelow(rootFD, rootPath, fd)
	if err := r.move(fd, ""); err != nil {
		return "", false
	}
	if ok && !r.inside { // a path from a folder below the root (git's way)
		r.inside, r.stack = true, below
	}
	if _, _, err := r.resolve(dir, true); err != nil && !errors.Is(err, ErrOutside) {
		return "", false
	}
	if !r.inside {
		return "", false
	}
	switch name {
	case "", ".":
		if len(r.stack) == 0 {
			return ".", true
		}
		return strings.Join(r.stack, "/"), true
	case "..":
		return "", false
	}
	return strings.Join(append(slices.Clone(r.stack), name), "/"), true
}

// workDirBelow places the working directory (open as cwd) below the
// root: the names from the root down to it, when the working directory's
// name lies below the root's real name and the directory at those names
// under the root descriptor (no symlink followed on the way) is the
// working directory itself, by (dev, ino). ok is false otherwise (the
// working directory is the root, or outside it, or the names lead
// elsewhere): then the walk recognises the root only where it meets it.
func workDirBelow(rootFD int, rootPath string, cwd int) (names []string, ok bool) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, false
	}
	top, err := filepath.Abs(rootPath)
	if err == nil {
		top, err = filepath.EvalSymlinks(top)
	}
	if err != nil {
		return nil, false
	}
	rel, err := filepath.Rel(top, wd)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
		return nil, false
	}
	want, err := fdIdent(cwd)
	if err != nil {
		return nil, false
	}
	r, err := newResolver(rootFD, rootFD, "")
	if err != nil {
		return nil, false
	}
	defer r.close()
	for _, name := range splitPath(rel) {
		fd, err := eintr.Value(func() (int, error) {
			return unix.Openat(r.cur, name, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		})
		if err != nil {
			return nil, false
		}
		r.close()
		r.cur = fd
	}
	if got, err := fdIdent(r.cur); err != nil || got != want {
		return nil, false
	}
	return splitPath(rel), true
}
