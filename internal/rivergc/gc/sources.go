//go:build linux

package gc

import (
	"errors"
	"iter"
	"path"
	"slices"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/plangate-gc/plangate-gc/internal/backend/local"
	"github.com/plangate-gc/plangate-gc/internal/gitignore"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/stores"
	"github.com/plangate-gc/plangate-gc/skill"
)

// singleSources returns the built-in single sources as hard guards, plus,
// for each of them that is a symlink (artifacts/evals/latest → run-42),
// the path it points to inside the root: seed 000 protects "the current
// run", not just the link. Where the link leads is decided by identity
// beneath the root descriptor (resolve.go), never by path strings. A link
// that points nowhere, outside the root, in a loop or through a
// non-directory protects nothing, so it is a warning (SPEC B2, B4) for the
// selected scopes. A link whose target cannot be decided (a directory on
// the way that may not be searched, say) protects the whole directory
// holding the link, and says so.
func singleSources(root *Root, selected []skill.Scope) ([]string, []Warning) {
	var gs []string
	var ws []Warning
	for s, src := range allSingleSources() {
		gs = append(gs, src)
		target, link, isDir, err := root.tree.linkTarget(src)
		w := Warning{Scope: s, Path: src, Target: link}
		switch {
		case link == "":
			continue
		case err == nil:
			gs = append(gs, target)
			if isDir || s != skill.ScopeEvals {
				continue
			}
			w.Kind = WarnSingleSourceNotDir // the current run is a directory
		case errors.Is(err, local.ErrDangling):
			w.Kind = WarnDanglingSingleSource
		case errors.Is(err, local.ErrOutside):
			w.Kind = WarnSingleSourceOutsideRoot
		case errors.Is(err, local.ErrLoop):
			w.Kind = WarnSingleSourceLoop
		case errors.Is(err, local.ErrNotDir):
			w.Kind = WarnSingleSourceNotDir
		default:
			gs = append(gs, path.Dir(src))
			w.Kind, w.Err = WarnSingleSourceUndecided, err
		}
		if slices.Contains(selected, s) {
			ws = append(ws, w)
		}
	}
	return gs, ws
}

// allSingleSources yields every scope's built-in single sources, in scope
// order.
func allSingleSources() iter.Seq2[skill.Scope, string] {
	return func(yield func(skill.Scope, string) bool) {
		for _, s := range skill.Scopes() {
			for _, src := range s.SingleSources() {
				if !yield(s, src) {
					return
				}
			}
		}
	}
}

// unusedExcludeBudget caps the matching done to find unused excludes
// (patterns × paths); beyond it the check is skipped rather than slow.
const unusedExcludeBudget = 50_000_000

// excludeUse finds the --exclude patterns that match none of the judged
// paths (itself or through a parent directory), so that a typo such as
// 'artifacts/keep/**' for a tree without that directory does not pass
// unnoticed. Negated patterns re-include and are not checked. It sees
// one scope at a time, so no list of every path of the run is kept.
type excludeUse struct {
	uniq    []string // the distinct patterns, sorted
	unused  []int    // indexes into uniq still matching nothing
	match   []*gitignore.Session
	paths   int  // paths seen so far
	skipped bool // the budget was exceeded: no warnings at all
}

func newExcludeUse(patterns []string) *excludeUse {
	u := &excludeUse{uniq: slices.Compact(slices.Sorted(slices.Values(patterns)))}
	u.match = make([]*gitignore.Session, len(u.uniq))
	for i, p := range u.uniq {
		if strings.HasPrefix(p, "!") {
			continue
		}
		m, err := gitignore.Compile(withTwins(p))
		if err != nil {
			continue // validated by the caller already
		}
		u.match[i] = m.Session()
		u.unused = append(u.unused, i)
	}
	return u
}

// see checks the still unused patterns against one scope's entries. Once
// patterns × paths of the run exceed unusedExcludeBudget the check is
// given up (rather than slow) and warns about nothing.
func (u *excludeUse) see(entries []skill.Entry) {
	u.paths += len(entries)
	if u.skipped = u.skipped || len(u.uniq)*u.paths > unusedExcludeBudget; u.skipped || len(u.unused) == 0 {
		return
	}
	nfc := make([]string, len(entries))
	for i, e := range entries {
		nfc[i] = norm.NFC.String(e.Path)
	}
	u.unused = slices.DeleteFunc(u.unused, func(i int) bool { return slices.ContainsFunc(nfc, u.match[i].Match) })
}

// warnings names the patterns that matched nothing, in byte order.
func (u *excludeUse) warnings() []Warning {
	if u.skipped {
		return nil
	}
	var ws []Warning
	for _, i := range u.unused {
		ws = append(ws, Warning{Kind: WarnUnusedExclude, Path: u.uniq[i]})
	}
	return ws
}

// withTwins is p and its twins for the entries of each store (decision
// 240): a pattern that names an entry by its raw id is used when its twin
// matched.
func withTwins(p string) []string {
	ps := []string{p}
	for _, s := range skill.Scopes() {
		if rel := s.Store(); rel != "" {
			for _, twin := range stores.Twins(p, rel) {
				if !slices.Contains(ps, twin) {
					ps = append(ps, twin)
				}
			}
		}
	}
	return ps
}
