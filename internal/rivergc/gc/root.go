//go:build linux

package gc

import (
	"github.com/plangate-gc/plangate-gc/internal/backend/local"
)

// Root is the repository root of one run, opened once at the start: a
// directory (OpenRoot; every later operation is relative to its one
// descriptor, held by its tree, SPEC B2) or a bucket below a key prefix
// (OpenObjects).
type Root struct {
	// Path is the root as given or discovered, for messages and for the
	// lock; it is never used to reach a file.
	Path string
	// Passed and WorkTree say how discovery chose a directory root
	// (local.Root).
	Passed, WorkTree string
	// tree is what the run does on this kind of root (a directory or a
	// bucket), chosen when the root is opened, and nowhere else.
	tree tree
}

// ErrNoRoot means no River Review repository root was found: the
// directory holds neither .river/ nor artifacts/.
var ErrNoRoot = local.ErrNoRoot

// RootError says why a root could not be used (local.RootError).
type RootError = local.RootError

// OpenRoot opens a directory root (local.OpenRoot): with explicit, dir
// is the root and must hold .river/ or artifacts/; otherwise the root is
// found from dir upward.
func OpenRoot(dir string, explicit bool) (*Root, error) {
	lr, err := local.OpenRoot(dir, explicit)
	if err != nil {
		return nil, err
	}
	r := &Root{Path: lr.Path, Passed: lr.Passed, WorkTree: lr.WorkTree}
	r.tree = &dirTree{root: lr}
	return r, nil
}

// Close releases the root.
func (r *Root) Close() error { return r.tree.close() }

// Relative turns a command-line path into a root-relative one, as
// --explain takes it; ok is false when it is not below the root.
func (r *Root) Relative(p string) (rel string, ok bool) { return r.tree.relative(r.Path, p) }

// Descriptor is the optional feature of a directory root: the descriptor
// every file-system operation is relative to (for the git index and the
// output-file guard). ok is false for a root that has none (a bucket).
func (r *Root) Descriptor() (fd int, ok bool) {
	t, ok := r.tree.(*dirTree)
	if !ok {
		return -1, false
	}
	return t.fd(), true
}

// rootWarnings are the warnings about how the root r was discovered.
func rootWarnings(r *local.Root) []Warning {
	switch {
	case r.Passed != "":
		return []Warning{{Kind: WarnRootFixture, Path: r.Passed, Target: r.Path}}
	case r.WorkTree != "":
		return []Warning{{Kind: WarnRootInWorkTree, Path: r.Path, Target: r.WorkTree}}
	}
	return nil
}
