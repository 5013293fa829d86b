//go:build linux

package outfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/plangate-gc/plangate-gc/internal/backend/local/ident"
	"github.com/plangate-gc/plangate-gc/internal/backend/local/journal"
	"github.com/plangate-gc/plangate-gc/skill"
)

// fileID is a file's identity (device, inode).
type fileID struct{ dev, ino uint64 }

// outputGuard knows, by identity rather than by name, the directories and
// files river gc must never write into or over: the scope directories, the
// parents a missing scope directory would be created in, and the single
// sources with what a symlinked one points to. Identities survive every
// spelling of a path: "..", symlinked parents, bind mounts.
type outputGuard struct {
	root      fileID
	scopeDirs map[fileID]Role     // recursive scope directories
	artifacts fileID              // review-artifacts lists its direct children
	reserved  map[fileID][]string // directory → names that would become a scope directory
	sources   map[fileID]Role     // single sources and their targets, the journal
}

// newOutputGuard looks the protected places up below the directory
// root open as rootFD.
func newOutputGuard(rootFD int) outputGuard {
	g := outputGuard{scopeDirs: map[fileID]Role{}, reserved: map[fileID][]string{}, sources: map[fileID]Role{}}
	g.root, _ = statAt(rootFD, ".")
	for _, s := range skill.Scopes() {
		if s == skill.ScopeReviewArtifacts {
			continue
		}
		for _, d := range s.Dirs() {
			if id, ok := statAt(rootFD, d); ok {
				g.scopeDirs[id] = Role{Kind: RoleEntry, Name: string(s)}
			}
		}
	}
	g.artifacts, _ = statAt(rootFD, "artifacts")
	for dir, names := range map[string][]string{".": {".river", "artifacts"}, ".river": {"memory", "tmp", "runs"}, "artifacts": {"evals", ".tmp"}} {
		if id, ok := statAt(rootFD, dir); ok {
			g.reserved[id] = names
		}
	}
	for _, j := range []string{journal.Path, journal.AltPath} {
		if id, ok := statAt(rootFD, j); ok {
			g.sources[id] = Role{Kind: RoleJournal}
		}
	}
	for _, s := range skill.Scopes() {
		for _, src := range s.SingleSources() {
			if id, ok := statFollowAt(rootFD, src); ok {
				g.sources[id] = Role{Kind: RoleSourceTarget, Name: src}
			}
		}
	}
	return g
}

// check says what p would damage, or the zero Role for nothing.
func (g outputGuard) check(p string) Role {
	if st, err := os.Stat(p); err == nil { // the file itself, however reached
		if what, ok := g.sources[idOf(st)]; ok {
			return what
		}
	}
	dir, name := rawSplit(p)
	// The nearest existing ancestor, as the kernel resolves the raw path
	// (a missing directory would be created below it: then p's own name
	// cannot take a scope directory's place).
	direct := true
	for {
		if _, err := os.Stat(dir); err == nil || !errors.Is(err, fs.ErrNotExist) {
			break
		}
		dir, name = rawSplit(dir)
		direct = false
	}
	st, err := os.Stat(dir)
	if err != nil {
		return Role{}
	}
	id := idOf(st)
	if direct && g.artifacts == id && (isReviewArtifactName(name) || name == "review-artifact.schema.json") {
		return Role{Kind: RoleEntry, Name: string(skill.ScopeReviewArtifacts)}
	}
	for _, reserved := range g.reserved[id] {
		if direct && name == reserved {
			return Role{Kind: RoleScopeDir}
		}
	}
	// Walk up through ".." (which also leaves a bind mount the way the
	// kernel does) until the root or the file-system root.
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return Role{}
	}
	for fd >= 0 {
		parent, s, _, _, err := ident.Parent(fd) // -1 at "/" or on failure
		unix.Close(fd)
		if err != nil && s.Ino == 0 {
			return Role{} // not even described
		}
		cur := fileID{uint64(s.Dev), s.Ino}
		if what, ok := g.scopeDirs[cur]; ok {
			closeIfOpen(parent)
			return what
		}
		if what, ok := g.sources[cur]; ok {
			closeIfOpen(parent)
			return what
		}
		if err != nil {
			return Role{}
		}
		fd = parent
	}
	return Role{}
}

// closeIfOpen closes fd unless it is -1.
func closeIfOpen(fd int) {
	if fd >= 0 {
		unix.Close(fd)
	}
}

// rawSplit splits p at its last slash without cleaning it, so that "x/.."
// keeps the meaning the kernel gives it.
func rawSplit(p string) (dir, name string) {
	p = strings.TrimRight(p, "/")
	i := strings.LastIndexByte(p, '/')
	switch {
	case i < 0:
		return ".", p
	case i == 0:
		return "/", p[1:]
	}
	return p[:i], p[i+1:]
}

func idOf(st fs.FileInfo) fileID {
	s := st.Sys().(*syscall.Stat_t) // Linux only, like the rest of river gc
	return fileID{uint64(s.Dev), s.Ino}
}

// statAt is the identity of a directory below the root, not followed.
func statAt(rootfd int, rel string) (fileID, bool) {
	var st unix.Stat_t
	if unix.Fstatat(rootfd, rel, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
		return fileID{}, false
	}
	return fileID{uint64(st.Dev), st.Ino}, true
}

// statFollowAt is the identity of what rel names, symlinks followed.
func statFollowAt(rootfd int, rel string) (fileID, bool) {
	var st unix.Stat_t
	if unix.Fstatat(rootfd, rel, &st, 0) != nil {
		return fileID{}, false
	}
	return fileID{uint64(st.Dev), st.Ino}, true
}

// isReviewArtifactName is the review-artifacts scope's name rule (SPEC A6).
func isReviewArtifactName(name string) bool {
	return skill.ScopeReviewArtifacts.InScope("artifacts/" + filepath.ToSlash(name))
}
