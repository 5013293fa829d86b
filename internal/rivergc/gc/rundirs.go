//go:build linux

package gc

import (
	"cmp"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/plangate-gc/plangate-gc/internal/backend/local"
	"github.com/plangate-gc/plangate-gc/internal/rivergc/scan"
	"github.com/plangate-gc/plangate-gc/skill"
)

// runDir is a directory of an eval run that the run's removals may
// empty, with its identity when judged and, for --force, a descriptor
// held on it until the removal (local.HeldDir).
type runDir struct {
	path string
	dir  local.HeldDir
}

// maxHeldRunDirs bounds the descriptors held on candidate folders; the
// ones past it are not removed and are reported as staying.
const maxHeldRunDirs = 4096

// closeRunDirs releases the descriptors held on dirs.
func closeRunDirs(dirs []runDir) {
	for i := range dirs {
		dirs[i].dir.Release()
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
	var out []runDir
	for _, d := range local.HoldDirs(rootFD, slices.Sorted(maps.Keys(cand)), hold, maxHeldRunDirs) {
		out = append(out, runDir{path: d.Path, dir: d})
	}
	slices.SortFunc(out, func(a, b runDir) int {
		return cmp.Or(cmp.Compare(strings.Count(b.path, "/"), strings.Count(a.path, "/")), strings.Compare(a.path, b.path))
	})
	return out
}

// removeRunDirs removes, deepest first, each directory of dirs that is
// empty and still the directory judged (same dev and ino, reached
// without a symlink), with unlinkat(AT_REMOVEDIR) on its parent opened
// through the root descriptor: the kernel refuses a directory that is
// not empty. It returns the removed ones and those that stay, and
// releases the descriptors held on dirs.
func removeRunDirs(rootFD int, dirs []runDir) (removed, stay []string) {
	for _, d := range dirs {
		if local.RemoveEmpty(rootFD, d.dir) {
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
