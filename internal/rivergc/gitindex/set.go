//go:build linux

package gitindex

import (
	"slices"
	"strings"
	"sync"
)

// Set is the set of git-tracked paths below one root. Paths are
// root-relative, slash-separated and clean (no "./", no trailing slash).
// The zero value and nil are empty sets.
type Set struct {
	files map[string]struct{}
	// dirs holds sparse-index directory entries and submodules:
	// everything beneath them is tracked without being listed here.
	dirs map[string]struct{}
	// all is true when the root itself lies inside a sparse directory.
	all bool
	// sorted is every path of files and dirs in byte order, built once
	// by the first HasUnder.
	sortOnce sync.Once
	sorted   []string
}

// Contains reports whether rel (root-relative, slash-separated, clean) is
// tracked, or lies inside a directory that a sparse index records as a
// whole, or inside a submodule (whose files its own index tracks; the
// superproject's index only names the submodule). For such a directory
// itself it also reports true. When the root lies inside one, every path
// is tracked.
func (s *Set) Contains(rel string) bool {
	if s == nil {
		return false
	}
	if s.all {
		return true
	}
	if _, ok := s.files[rel]; ok {
		return true
	}
	if len(s.dirs) == 0 {
		return false
	}
	for p := rel; ; {
		if _, ok := s.dirs[p]; ok {
			return true
		}
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			return false
		}
		p = p[:i]
	}
}

// HasUnder reports whether anything below the directory dir is tracked
// (Contains for dir itself, or for any path below it). The first call
// sorts the index's paths once; each call then costs one binary search,
// so a tree of many leftover directories costs O((n + leftovers) log n),
// not n × leftovers.
func (s *Set) HasUnder(dir string) bool {
	if s.Contains(dir) {
		return true
	}
	if s == nil {
		return false
	}
	sorted := s.sortedPaths()
	prefix := dir + "/"
	i, _ := slices.BinarySearch(sorted, prefix)
	return i < len(sorted) && strings.HasPrefix(sorted[i], prefix)
}

// sortedPaths is every path of files and dirs in byte order, sorted by
// the first call.
func (s *Set) sortedPaths() []string {
	s.sortOnce.Do(func() {
		s.sorted = make([]string, 0, len(s.files)+len(s.dirs))
		for _, m := range []map[string]struct{}{s.files, s.dirs} {
			for p := range m {
				s.sorted = append(s.sorted, p)
			}
		}
		slices.Sort(s.sorted)
	})
	return s.sorted
}

// Len returns the number of index entries below the root, counting a
// sparse directory or submodule as one entry and a path with several
// conflict stages once. It is 0 when the root is not inside a work tree,
// and also when the root lies inside a sparse directory or submodule
// (then Contains is true for everything).
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.files) + len(s.dirs)
}

// newSet keeps the entries of names that lie below prefix ("" for the
// work tree top, else "a/b"), made relative to it.
func newSet(ix *index, prefix string) *Set {
	s := &Set{files: make(map[string]struct{}, len(ix.names))}
	under := func(name string) (string, bool) {
		if prefix == "" {
			return name, true
		}
		if len(name) > len(prefix) && name[len(prefix)] == '/' && strings.HasPrefix(name, prefix) {
			return name[len(prefix)+1:], true
		}
		return "", false
	}
	for _, name := range ix.names {
		d, isDir := strings.CutSuffix(name, "/")
		if !isDir {
			if rel, ok := under(name); ok {
				s.files[rel] = struct{}{}
			}
			continue
		}
		if prefix != "" && (d == prefix || strings.HasPrefix(prefix, d+"/")) {
			s.all = true
			continue
		}
		if rel, ok := under(d); ok {
			if s.dirs == nil {
				s.dirs = make(map[string]struct{})
			}
			s.dirs[rel] = struct{}{}
		}
	}
	return s
}

// FilesWithPrefix returns, sorted, the paths the index lists as files of
// their own (not a sparse directory or submodule, whose files it does
// not name) that begin with prefix: the names river gc keeps its journal
// under (journal.Listed, decision 346). Once HasUnder's sorted paths
// are built, it costs one binary search and the paths beginning so.
func (s *Set) FilesWithPrefix(prefix string) []string {
	if s == nil {
		return nil
	}
	sorted := s.sortedPaths()
	var out []string
	for i, _ := slices.BinarySearch(sorted, prefix); i < len(sorted) && strings.HasPrefix(sorted[i], prefix); i++ {
		if _, ok := s.files[sorted[i]]; ok {
			out = append(out, sorted[i])
		}
	}
	return out
}
