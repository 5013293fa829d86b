//go:build linux

// Package journal is the disk's primitives for river gc's record (SPEC
// B4, I2; the format, recovery and the lock rule are package record's):
// the journal file appended to and synced through the root descriptor,
// listed and read without following anything, the current identity of
// journaled paths beneath the root (their private names and the
// directories held whole included), and removing, setting aside and the
// temporary copies of killed rewrites.
//
// The journal lives at Path (.river/gc-journal) when .river is a real
// directory of the root that river gc may create a file in, else at
// AltPath (artifacts/.river-gc-journal); List finds both.
// Neither is in any scope: scopes are the directories .river/memory,
// .river/tmp, .river/runs, artifacts/evals and artifacts/.tmp, and the
// artifacts/review-artifact*.json and artifacts/review-*.md names. It is
// opened through the root descriptor, never through a symlink (O_NOFOLLOW
// on the directory and the file), created with O_EXCL, and an existing
// journal is appended to only if it is a regular file with one link.
// An intent's tag is the file's identity as scanned (Tag: device, inode,
// size and st_mtim as tv_sec*1e9 + tv_nsec); its key is the canonical
// root-relative path.
package journal

import (
	"slices"
	"strconv"
	"strings"
)

// Path and AltPath are the journal's root-relative names (package doc).
const (
	Path    = ".river/gc-journal"
	AltPath = "artifacts/.river-gc-journal"
)

// Ours reports whether rel (root-relative, NFC) is a name river gc keeps
// a journal under: Path, AltPath, or one of them with ".unreadable-<n>"
// (a journal set aside, Journals.SetAside). Nothing may write over it.
func Ours(rel string) bool {
	for _, p := range []string{Path, AltPath} {
		n, ok := strings.CutPrefix(rel, p)
		if ok && n == "" {
			return true
		}
		if d, ok := strings.CutPrefix(n, ".unreadable-"); ok && d != "" && strings.Trim(d, "0123456789") == "" {
			return true
		}
	}
	return false
}

// Listed is, sorted, the names river gc keeps a journal under (Ours)
// that files lists: files(prefix) names the files beginning with prefix
// (gitindex.Set.FilesWithPrefix names those the git index tracks). A
// journal name that git tracks is no journal of this root's (it may
// come from another clone): river gc never reads, writes, renames or
// removes it (decision 346).
func Listed(files func(prefix string) []string) []string {
	var out []string
	for _, p := range []string{Path, AltPath} {
		for _, f := range files(p) {
			if Ours(f) {
				out = append(out, f)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Of is the journal name (Path or AltPath) rel is or was set aside from
// (Ours), or "" when rel is no name of river gc's journal.
func Of(rel string) string {
	if !Ours(rel) {
		return ""
	}
	if strings.HasPrefix(rel, AltPath) {
		return AltPath
	}
	return Path
}

// Tag is the identity tag of a disk intent: "<dev> <ino> <size>
// <mtime-ns>", written bare in the journal line (record.AppendLine), as
// every disk journal has always written it.
func Tag(dev, ino uint64, size, mtimeNs int64) string {
	b := make([]byte, 0, 64)
	b = strconv.AppendUint(b, dev, 10)
	b = append(b, ' ')
	b = strconv.AppendUint(b, ino, 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, size, 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, mtimeNs, 10)
	return string(b)
}

// identity is a parsed Tag.
type identity struct {
	dev, ino      uint64
	size, mtimeNs int64
}

// parseTag reads a Tag.
func parseTag(tag string) (id identity, ok bool) {
	var f [4]string
	for i := range f {
		if i < 3 {
			var found bool
			if f[i], tag, found = strings.Cut(tag, " "); !found {
				return id, false
			}
		} else {
			f[i] = tag
		}
	}
	var err [4]error
	id.dev, err[0] = strconv.ParseUint(f[0], 10, 64)
	id.ino, err[1] = strconv.ParseUint(f[1], 10, 64)
	id.size, err[2] = strconv.ParseInt(f[2], 10, 64)
	id.mtimeNs, err[3] = strconv.ParseInt(f[3], 10, 64)
	return id, err[0] == nil && err[1] == nil && err[2] == nil && err[3] == nil
}

// canonical reports whether p is a root-relative path without empty, "."
// or ".." segments and without NUL (scan's form).
func canonical(p string) bool {
	if p == "" || p[0] == '/' || strings.IndexByte(p, 0) >= 0 {
		return false
	}
	for p != "" { // without allocating: Intend checks every intent
		c := p
		if i := strings.IndexByte(p, '/'); i >= 0 {
			c, p = p[:i], p[i+1:]
			if p == "" {
				return false // a trailing '/'
			}
		} else {
			p = ""
		}
		if c == "" || c == "." || c == ".." {
			return false
		}
	}
	return true
}
