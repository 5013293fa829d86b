//go:build linux

package local

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/eintr"
)

// Root is the repository root of one run: opened once, by path, at the
// start (a symlink given as --root is followed then and never again);
// every later operation is relative to FD (SPEC B2).
type Root struct {
	// Path is the root as given or discovered, for messages and for the
	// lock; it is never used to reach a file.
	Path string
	// FD is an O_PATH descriptor of the root directory.
	FD int
	// Passed is, when discovery took the git work tree's top instead,
	// the nearer directory holding .river/ or artifacts/ that it passed
	// over (a fixture, most likely); WorkTree is, when discovery kept a
	// root below the top of its git work tree because the top holds
	// neither, that top (SPEC B5). Both are "" otherwise.
	Passed, WorkTree string
}

// ErrNoRoot means no River Review repository root was found: the
// directory holds neither .river/ nor artifacts/.
var ErrNoRoot = errors.New("not a River Review repository root")

// RootError says why a root could not be used.
type RootError struct {
	// Path is the --root given, or the working directory searched from.
	Path string
	// Explicit is true for --root, false for the upward search.
	Explicit bool
	// Err is ErrNoRoot or the system error.
	Err error
}

func (e *RootError) Error() string { return "root " + e.Path + ": " + e.Err.Error() }

// Unwrap returns the cause.
func (e *RootError) Unwrap() error { return e.Err }

// OpenRoot opens the run's root. With explicit, dir is the root and must
// hold .river/ or artifacts/, so a mistyped --root does not give a green
// job that did nothing. Otherwise the root is the nearest directory from
// dir upward that holds one of them.
func OpenRoot(dir string, explicit bool) (*Root, error) {
	if explicit {
		r, err := openRoot(dir)
		if err != nil {
			return nil, &RootError{Path: dir, Explicit: true, Err: err}
		}
		return r, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, &RootError{Path: dir, Err: err}
	}
	for d := abs; ; d = filepath.Dir(d) {
		if r, err := openRoot(d); err == nil {
			r = outermost(r, d)
			r = preferWorkTree(r)
			if r.Path == abs {
				r.Path = dir // the working directory, as the user knows it
			}
			return r, nil
		} else if !errors.Is(err, ErrNoRoot) {
			return nil, &RootError{Path: d, Err: err}
		}
		if d == filepath.Dir(d) {
			return nil, &RootError{Path: abs, Err: ErrNoRoot}
		}
	}
}

// outermost continues the upward search from the root r found at dir:
// a root that lies inside another root's data (its artifacts/ or .river/,
// as a copied eval run artifacts/evals/run-42/ with an artifacts/ of its
// own does) is not a repository root but data of the outer one, which
// is taken instead, repeatedly (SPEC B4: discovery never lands inside a
// run). A directory above that cannot be examined is not a root.
func outermost(r *Root, dir string) *Root {
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		rel, err := filepath.Rel(d, dir)
		if err == nil && insideData(filepath.ToSlash(rel)) {
			if outer, err := openRoot(d); err == nil {
				r.Close()
				r, dir = outer, d
			}
		}
		if d == filepath.Dir(d) {
			return r
		}
	}
}

// preferWorkTree takes the top of the git work tree holding the
// discovered root r when that top is a root too: a .river/ or
// artifacts/ below it is a fixture or a copy, not the repository (SPEC
// B5). The top is the nearest directory upward holding a .git entry, on
// the root's file system; the search stops at a mount.
func preferWorkTree(r *Root) *Root {
	var st unix.Stat_t
	if eintr.Retry(func() error { return unix.Stat(r.Path, &st) }) != nil {
		return r
	}
	dev := st.Dev
	for d := r.Path; ; d = filepath.Dir(d) {
		var ds unix.Stat_t
		if eintr.Retry(func() error { return unix.Stat(d, &ds) }) != nil || ds.Dev != dev {
			return r
		}
		var gs unix.Stat_t
		if eintr.Retry(func() error { return unix.Lstat(filepath.Join(d, ".git"), &gs) }) == nil {
			if d == r.Path {
				return r
			}
			top, err := openRoot(d)
			if err != nil {
				r.WorkTree = d
				return r
			}
			top.Passed = r.Path
			r.Close()
			return top
		}
		if d == filepath.Dir(d) {
			return r
		}
	}
}

// insideData reports whether the relative path rel lies in a root's
// artifacts/ or .river/ directory.
func insideData(rel string) bool {
	for _, top := range []string{"artifacts/", ".river/"} {
		if strings.HasPrefix(rel, top) {
			return true
		}
	}
	return false
}

// openRoot opens dir and checks that it holds .river/ or artifacts/ as a
// real directory.
func openRoot(dir string) (*Root, error) {
	fd, err := eintr.Value(func() (int, error) {
		return unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	for _, marker := range []string{".river", "artifacts"} {
		var st unix.Stat_t
		err := eintr.Retry(func() error { return unix.Fstatat(fd, marker, &st, unix.AT_SYMLINK_NOFOLLOW) })
		if err == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR {
			return &Root{Path: dir, FD: fd}, nil
		}
	}
	unix.Close(fd)
	return nil, ErrNoRoot
}

// Close releases the root descriptor.
func (r *Root) Close() error { return unix.Close(r.FD) }
