//go:build linux

package gc

import (
	"cmp"
	"maps"
	"path"
	"slices"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/eintr"
	"github.com/plangate-gc/plangate-gc/internal/fserr"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/scan"
	"github.com/plangate-gc/plangate-gc/skill"
)

// runDir is a directory of an eval run that the run's removals may
// empty, with its identity when judged and, for --force, an O_PATH
// descriptor held on it until the removal: while it is open the inode
// cannot be freed and reused, so (dev, ino) names this directory and no
// other (a folder removed and made again may get the same inode number
// otherwise).
type runDir struct {
	path     string
	dev, ino uint64
	fd       int // -1 when none is held
}

// maxHeldRunDirs bounds the descriptors held on candidate folders; the
// ones past it are not removed and are reported as staying.
const maxHeldRunDirs = 4096

// closeRunDirs releases the descriptors held on dirs.
func closeRunDirs(dirs []runDir) {
	for i := range dirs {
		if dirs[i].fd >= 0 {
			unix.Close(dirs[i].fd)
			dirs[i].fd = -1
		}
	}
}

// evalsDir is scope evals' own directory, which is never removed.
const evalsDir = "artifacts/evals"

// emptiedRunDirs lists the directories of eval runs that the removals of
// scope evals would leave without a scanned file: from each removed
// file's folder up to its run's directory (the shallowest folder below
// artifacts/evals/ directly holding a *.json with a metadata timestamp,
// as scan takes runs), never artifacts/evals itself, and only folders
// every scanned file below which is removed. Deepest first, then by
// path, each with its (dev, ino) now (SPEC B7). A folder not on the
// root's device, or reached through a symlink, is left out.
func emptiedRunDirs(rootFD int, files []scan.File, removed []skill.Decision, hold bool) []runDir {
	if len(removed) == 0 {
		return nil
	}
	direct := map[string]bool{}
	for _, f := range files {
		if f.TimestampSource == scan.SourceMetadata {
			direct[path.Dir(f.Path)] = true
		}
	}
	gone := map[string]bool{}
	for _, d := range removed {
		gone[d.Path] = true
	}
	kept := map[string]bool{} // folders with a file that stays
	for _, f := range files {
		if !gone[f.Path] {
			for dir := path.Dir(f.Path); strings.HasPrefix(dir, evalsDir+"/"); dir = path.Dir(dir) {
				kept[dir] = true
			}
		}
	}
	cand := map[string]bool{}
	for _, d := range removed {
		var chain []string
		run := ""
		for dir := path.Dir(d.Path); strings.HasPrefix(dir, evalsDir+"/"); dir = path.Dir(dir) {
			chain = append(chain, dir)
			if direct[dir] {
				run = dir // the last one seen is the shallowest
			}
		}
		for _, dir := range chain {
			if kept[dir] || run == "" {
				break
			}
			cand[dir] = true
			if dir == run {
				break
			}
		}
	}
	var st unix.Stat_t
	if err := unix.Fstat(rootFD, &st); err != nil {
		return nil
	}
	rootDev := st.Dev
	var out []runDir
	for _, dir := range slices.Sorted(maps.Keys(cand)) {
		fd, ok := openDirNoFollow(rootFD, dir)
		if !ok {
			continue
		}
		id, err := identOf(fd)
		if err != nil || id.dev != rootDev {
			unix.Close(fd)
			continue
		}
		d := runDir{path: dir, dev: id.dev, ino: id.ino, fd: fd}
		if !hold || len(out) >= maxHeldRunDirs {
			unix.Close(fd)
			d.fd = -1
		}
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b runDir) int {
		return cmp.Or(cmp.Compare(strings.Count(b.path, "/"), strings.Count(a.path, "/")), strings.Compare(a.path, b.path))
	})
	return out
}

// openDirNoFollow opens the directory rel below the root (O_PATH), one
// component at a time, never following a symlink; the caller closes it.
func openDirNoFollow(rootFD int, rel string) (int, bool) {
	cur := rootFD
	for _, name := range strings.Split(rel, "/") {
		fd, err := eintr.Value(func() (int, error) {
			return unix.Openat(cur, name, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		})
		if cur != rootFD {
			unix.Close(cur)
		}
		if err != nil {
			return -1, false
		}
		cur = fd
	}
	return cur, true
}

// removeRunDirs removes, deepest first, each directory of dirs that is
// empty and still the directory judged (same dev and ino, reached
// without a symlink), with unlinkat(AT_REMOVEDIR) on its parent opened
// through the root descriptor: the kernel refuses a directory that is
// not empty. It returns the removed ones and those that stay, and
// releases the descriptors held on dirs.
func removeRunDirs(rootFD int, dirs []runDir) (removed, stay []string) {
	for _, d := range dirs {
		if removeRunDir(rootFD, d) {
			removed = append(removed, d.path)
		} else {
			stay = append(stay, d.path)
		}
	}
	closeRunDirs(dirs)
	slices.Sort(removed)
	slices.Sort(stay)
	return removed, stay
}

// removeRunDir removes one emptied run directory (removeRunDirs); only
// one whose descriptor was held since it was judged.
func removeRunDir(rootFD int, d runDir) bool {
	if d.fd < 0 {
		return false
	}
	parent, name := path.Split(d.path)
	pfd, ok := openDirNoFollow(rootFD, strings.TrimSuffix(parent, "/"))
	if !ok {
		return false
	}
	defer unix.Close(pfd)
	var st unix.Stat_t
	err := eintr.Retry(func() error { return unix.Fstatat(pfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) })
	if err != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR || st.Dev != d.dev || st.Ino != d.ino {
		return false
	}
	return eintr.Retry(func() error { return unix.Unlinkat(pfd, name, unix.AT_REMOVEDIR) }) == nil
}

// kindAt is what rel is below the directory rootFD, never followed.
func kindAt(rootFD int, rel string) (fserr.Kind, error) {
	var st unix.Stat_t
	err := eintr.Retry(func() error { return unix.Fstatat(rootFD, rel, &st, unix.AT_SYMLINK_NOFOLLOW) })
	return fserr.KindOf(st.Mode), err
}
