//go:build linux

package outfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/text/unicode/norm"

	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/journal"
	"github.com/plangate-gc/plangate-gc/skill"
)

// Check refuses an --output-file or --summary-file (either may be "")
// that could damage something (SPEC B2): a path that exists and is not a
// regular file (a symlink, device, FIFO, socket or directory), a path that
// would be an entry of any of the four scopes (river gc could judge, or
// delete, its own result), or a single source. Its error is an *Error or
// a *SameFileError; the caller runs it before anything is scanned (a
// config error) and again just before writing (a runtime failure).
func Check(root *gc.Root, outputFile, summaryFile string) error {
	files := [2]string{outputFile, summaryFile}
	guard := newOutputGuard(root)
	seen := map[string]string{}
	for i, name := range []string{"output-file", "summary-file"} {
		p := files[i]
		if p == "" {
			continue
		}
		if err := checkRegularOrAbsent(p); err != nil {
			return &Error{Flag: name, Path: p, Err: err}
		}
		if name == "summary-file" {
			if err := checkNotLinkedElsewhere(p); err != nil {
				return &Error{Flag: name, Path: p, Err: err}
			}
		}
		abs := resolvedAbs(p)
		if other, dup := seen[abs]; dup {
			return &SameFileError{First: other, Second: name, Path: p}
		}
		seen[abs] = name
		if rel, ok := rootRelative(root, p); ok {
			if what := protectedRole(rel); what != "" {
				return &Error{Flag: name, Path: p, Err: &ProtectedError{What: what}}
			}
		}
		// By identity too: "x/..", symlinked parents and bind mounts
		// reach the scopes under names the path alone does not show.
		if what := guard.check(p); what != "" {
			return &Error{Flag: name, Path: p, Err: &ProtectedError{What: what}}
		}
	}
	return nil
}

// Error is an output file refused or not written: Flag is the flag's
// name without dashes ("output-file", "summary-file"), Path the path given
// ("" when the failure came before the file itself was reached).
type Error struct {
	Flag, Path string
	Err        error
}

func (e *Error) Error() string {
	if e.Path == "" {
		return "--" + e.Flag + ": " + e.Err.Error()
	}
	return "--" + e.Flag + " " + e.Path + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// SameFileError is --output-file and --summary-file naming one file.
type SameFileError struct{ First, Second, Path string }

func (e *SameFileError) Error() string {
	return fmt.Sprintf("--%s and --%s name the same file %s", e.First, e.Second, e.Path)
}

// ProtectedError is an output path that is a scope entry, a single
// source, or where a scope directory belongs; What says which.
type ProtectedError struct{ What string }

func (e *ProtectedError) Error() string { return "is " + e.What + "; river gc never writes there" }

// ErrNotRegular says an output path exists and is not a regular file.
var ErrNotRegular = errors.New("exists and is not a regular file; river gc never replaces it")

// checkRegularOrAbsent accepts a missing path or a regular file.
func checkRegularOrAbsent(p string) error {
	st, err := os.Lstat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !st.Mode().IsRegular():
		return fmt.Errorf("%w (%s)", ErrNotRegular, st.Mode().Type())
	}
	return nil
}

// ErrLinked says a file to be appended to has other hard links: appending
// would change a file river gc does not own under another name (say, a
// single source linked to the summary path).
var ErrLinked = errors.New("has other hard links; river gc appends only to a file with one name")

// checkNotLinkedElsewhere accepts a missing path or a file with one link.
func checkNotLinkedElsewhere(p string) error {
	st, err := os.Lstat(p)
	if err != nil {
		return nil // absent: created; other errors surface when writing
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && sys.Nlink > 1 {
		return ErrLinked
	}
	return nil
}

// resolvedAbs is p made absolute with the symlinks of its nearest existing
// ancestor directory resolved, so that a path reaching into the root
// through a link is recognised.
func resolvedAbs(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	dir, rest := filepath.Dir(abs), filepath.Base(abs)
	for {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(real, rest)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return abs
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
}

// protectedRole says what a root-relative path is to river gc: an entry
// of a scope or a single source (or below one); "" for neither.
func protectedRole(rel string) string {
	nfc := norm.NFC.String(rel)
	if nfc == journal.Path || nfc == journal.AltPath {
		return "river gc's intent journal"
	}
	for _, s := range skill.Scopes() {
		for _, src := range s.SingleSources() {
			if nfc == src || strings.HasPrefix(nfc, src+"/") {
				return "the single source " + src
			}
		}
	}
	for _, s := range skill.Scopes() {
		if s.InScope(nfc) {
			return "an entry of scope " + string(s)
		}
	}
	return ""
}

// rootRelative is p as a root-relative path, decided by identity
// (gc.Root.Relative, no /proc): the nearest existing ancestor of p is
// located below the root, and the components that do not exist yet (and
// so cannot be links) are appended lexically.
func rootRelative(root *gc.Root, p string) (string, bool) {
	dir, rest := p, ""
	for {
		if rel, ok := root.Relative(dir); ok {
			rel = path.Clean(path.Join(rel, rest))
			if rel == ".." || strings.HasPrefix(rel, "../") {
				return "", false
			}
			return rel, true
		}
		i := strings.LastIndexByte(strings.TrimRight(dir, "/"), '/')
		if i <= 0 {
			return "", false
		}
		dir, rest = dir[:i], path.Join(dir[i+1:], rest)
	}
}
