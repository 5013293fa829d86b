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

	"github.com/plangate-gc/plangate-gc/internal/backend/local/journal"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
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
	// A bucket root (SPEC H4): the outputs are local files, outside it.
	fd, onDisk := root.Descriptor()
	local := !onDisk
	var guard outputGuard
	if !local {
		guard = newOutputGuard(fd)
	}
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
		if local {
			continue
		}
		if rel, ok := rootRelative(root, p); ok {
			if role := protectedRole(rel); role.Kind != "" {
				return &Error{Flag: name, Path: p, Err: &ProtectedError{Role: role}}
			}
		}
		// By identity too: "x/..", symlinked parents and bind mounts
		// reach the scopes under names the path alone does not show.
		if role := guard.check(p); role.Kind != "" {
			return &Error{Flag: name, Path: p, Err: &ProtectedError{Role: role}}
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
// source (or what a linked one points to), the intent journal, or where a
// scope directory belongs; Role says which.
type ProtectedError struct{ Role Role }

func (e *ProtectedError) Error() string {
	return "is " + e.Role.String() + "; river gc never writes there"
}

// Role is what an output path is to river gc; the zero Role is nothing.
type Role struct {
	Kind RoleKind
	Name string // the single source, or the scope
}

// RoleKind names a kind of place river gc never writes to.
type RoleKind string

// The places river gc never writes to.
const (
	RoleEntry        RoleKind = "entry"         // an entry of scope Name
	RoleSource       RoleKind = "source"        // the single source Name
	RoleSourceTarget RoleKind = "source-target" // the single source Name or what it points to
	RoleJournal      RoleKind = "journal"       // river gc's intent journal
	RoleScopeDir     RoleKind = "scope-dir"     // where a scope directory belongs
)

// String is the role in English, for developers; people see the
// catalog's words.
func (r Role) String() string {
	switch r.Kind {
	case RoleEntry:
		return "an entry of scope " + r.Name
	case RoleSource:
		return "the single source " + r.Name
	case RoleSourceTarget:
		return "the single source " + r.Name + " (or what it points to)"
	case RoleJournal:
		return "river gc's intent journal"
	case RoleScopeDir:
		return "where a scope directory belongs"
	}
	return ""
}

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
// of a scope or a single source (or below one); the zero Role for neither.
func protectedRole(rel string) Role {
	nfc := norm.NFC.String(rel)
	if journal.Ours(nfc) {
		return Role{Kind: RoleJournal}
	}
	for _, s := range skill.Scopes() {
		for _, src := range s.SingleSources() {
			if nfc == src || strings.HasPrefix(nfc, src+"/") {
				return Role{Kind: RoleSource, Name: src}
			}
		}
	}
	for _, s := range skill.Scopes() {
		if s.InScope(nfc) {
			return Role{Kind: RoleEntry, Name: string(s)}
		}
	}
	return Role{}
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
