//go:build linux

package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/text/unicode/norm"

	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
	"github.com/plangate-gc/plangate-gc/skill"
)

// checkOutputFiles refuses, before anything is scanned, an --output-file
// or --summary-file that could damage something (SPEC B2): a path that
// exists and is not a regular file (a symlink, device, FIFO, socket or
// directory), a path that would be an entry of any of the four scopes
// (river gc could judge, or delete, its own result), or a single source.
func checkOutputFiles(root *gc.Root, outputFile, summaryFile string) error {
	files := [2]string{outputFile, summaryFile}
	var rootAbs string
	guard := newOutputGuard(root)
	seen := map[string]string{}
	for i, name := range []string{"output-file", "summary-file"} {
		p := files[i]
		if p == "" {
			continue
		}
		if err := checkRegularOrAbsent(p); err != nil {
			return configErrorf("--%s %s: %w", name, p, err)
		}
		if name == "summary-file" {
			if err := checkNotLinkedElsewhere(p); err != nil {
				return configErrorf("--%s %s: %w", name, p, err)
			}
		}
		abs := resolvedAbs(p)
		if other, dup := seen[abs]; dup {
			return configErrorf("--%s and --%s name the same file %s", other, name, p)
		}
		seen[abs] = name
		if rootAbs == "" {
			var err error
			if rootAbs, err = root.RealPath(); err != nil {
				return configErrorf("--%s %s: %w", name, p, err)
			}
		}
		rel, err := filepath.Rel(rootAbs, abs)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			if what := protectedRole(filepath.ToSlash(rel)); what != "" {
				return configErrorf("--%s %s: is %s; river gc never writes there", name, p, what)
			}
		}
		// By identity too: "x/..", symlinked parents and bind mounts
		// reach the scopes under names the path alone does not show.
		if what := guard.check(p); what != "" {
			return configErrorf("--%s %s: is %s; river gc never writes there", name, p, what)
		}
	}
	return nil
}

// errNotRegular says an output path exists and is not a regular file.
var errNotRegular = errors.New("exists and is not a regular file; river gc never replaces it")

// checkRegularOrAbsent accepts a missing path or a regular file.
func checkRegularOrAbsent(p string) error {
	st, err := os.Lstat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !st.Mode().IsRegular():
		return fmt.Errorf("%w (%s)", errNotRegular, st.Mode().Type())
	}
	return nil
}

// errLinked says a file to be appended to has other hard links: appending
// would change a file river gc does not own under another name (say, a
// single source linked to the summary path).
var errLinked = errors.New("has other hard links; river gc appends only to a file with one name")

// checkNotLinkedElsewhere accepts a missing path or a file with one link.
func checkNotLinkedElsewhere(p string) error {
	st, err := os.Lstat(p)
	if err != nil {
		return nil // absent: created; other errors surface when writing
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && sys.Nlink > 1 {
		return errLinked
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
