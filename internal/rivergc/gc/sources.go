//go:build linux

package gc

import (
	"errors"
	"iter"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"golang.org/x/text/unicode/norm"

	"github.com/plangate-gc/plangate-gc/internal/eintr"
	"github.com/plangate-gc/plangate-gc/internal/gitignore"
	"github.com/plangate-gc/plangate-gc/skill"
)

// singleSources returns the built-in single sources as hard guards, plus,
// for each of them that is a symlink (artifacts/evals/latest → run-42),
// the path it points to inside the root: seed 000 protects "the current
// run", not just the link. A link that points nowhere or outside the root
// protects nothing, so it is a warning (SPEC B2) for the selected scopes.
// Only links are read; nothing is followed out of the root.
func singleSources(root *Root, selected []skill.Scope) ([]string, []Warning) {
	var gs []string
	var ws []Warning
	for s, src := range allSingleSources() {
		gs = append(gs, src)
		target, link, err := linkTarget(root, src)
		switch {
		case link == "":
		case err == nil:
			gs = append(gs, target)
		case !slices.Contains(selected, s):
		case errors.Is(err, unix.ENOENT):
			ws = append(ws, Warning{Kind: WarnDanglingSingleSource, Scope: s, Path: src, Target: link})
		case errors.Is(err, errOutside):
			ws = append(ws, Warning{Kind: WarnSingleSourceOutsideRoot, Scope: s, Path: src, Target: link})
		}
	}
	return gs, ws
}

var errOutside = errors.New("outside the root")

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

// openat2 is unix.Openat2, replaceable so a test can play a kernel
// without it.
var openat2 = unix.Openat2

// linkTarget reads the single source src when it is a symlink and returns
// its text (link, "" when src is no symlink) and the root-relative path of
// what it points to. err is ENOENT for a dangling link and errOutside for
// one that leaves the root (directly or through further links).
func linkTarget(root *Root, src string) (target, link string, err error) {
	dir, name := path.Split(src)
	how := unix.OpenHow{Flags: unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS}
	dfd, err := eintr.Value(func() (int, error) { return openat2(root.FD, strings.TrimSuffix(dir, "/"), &how) })
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) || errors.Is(err, unix.EINVAL) {
		dfd, err = openChain(root.FD, strings.Split(strings.TrimSuffix(dir, "/"), "/"))
	}
	if err != nil {
		return "", "", err
	}
	defer unix.Close(dfd)
	buf := make([]byte, unix.PathMax)
	n, err := eintr.Value(func() (int, error) { return unix.Readlinkat(dfd, name, buf) })
	if err != nil {
		return "", "", nil // not a symlink (or absent): nothing to resolve
	}
	link = string(buf[:n])
	// Follow the link the way a reader of it would (an absolute target
	// may well lie inside the root), opening nothing but an O_PATH handle;
	// where it ends up is then compared with the root by the kernel's
	// names for both.
	tfd, err := eintr.Value(func() (int, error) { return unix.Openat(dfd, name, unix.O_PATH|unix.O_CLOEXEC, 0) })
	if err != nil {
		return "", link, err
	}
	defer unix.Close(tfd)
	rootAbs, err1 := fdPath(root.FD)
	tAbs, err2 := fdPath(tfd)
	if err := errors.Join(err1, err2); err != nil {
		return "", link, err
	}
	rel, err := filepath.Rel(rootAbs, tAbs)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", link, errOutside
	}
	return filepath.ToSlash(rel), link, nil
}

// openChain opens the directory dirs below fd one component at a time
// without following symlinks, where openat2 is unavailable.
func openChain(fd int, dirs []string) (int, error) {
	cur := fd
	for _, d := range dirs {
		next, err := eintr.Value(func() (int, error) {
			return unix.Openat(cur, d, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		})
		if cur != fd {
			unix.Close(cur)
		}
		if err != nil {
			return -1, err
		}
		cur = next
	}
	return cur, nil
}

// fdPath is the kernel's name for an open descriptor.
func fdPath(fd int) (string, error) {
	buf := make([]byte, unix.PathMax)
	n, err := unix.Readlink("/proc/self/fd/"+strconv.Itoa(fd), buf)
	if err != nil {
		return "", err
	}
	return string(buf[:n]), nil
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
		m, err := gitignore.Compile([]string{p})
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
