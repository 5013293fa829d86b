// Package plan is river gc's reviewed deletion plan (SPEC Part J): what a
// dry-run would remove, each item with the identity it was judged by, the
// run's root, scopes, policy and reference time, the tool's version and a
// digest of the whole. --plan-out writes one; --force --apply deletes at
// most its items, each only while it is still what was planned.
//
// The package is data and its encoding only: it reads no file system,
// judges nothing and words nothing (gc builds and applies plans; the
// command reads and writes the file and words the errors).
package plan

import (
	"slices"
	"strings"

	"github.com/plangate-gc/plangate-gc/skill"
)

// FormatVersion is the plan format's version ("planVersion"). A plan of
// another format version is refused whole; the tool's version is recorded
// for people and not compared (identities decide what may go).
const FormatVersion = "1"

// Plan is one reviewed deletion plan.
type Plan struct {
	// ToolVersion is river gc's version that wrote the plan.
	ToolVersion string
	// Root is the run's root: an absolute directory or an s3:// URL.
	Root string
	// Now is the reference time, in epoch seconds.
	Now int64
	// Timestamp is how timestamps were read: "metadata" or "mtime".
	Timestamp string
	// KeepWithin is --keep-within in seconds (0: none).
	KeepWithin int64
	// Scopes are the resolved scopes, in skill.Scopes() order.
	Scopes []skill.Scope
	// Retention is the default policy; PerScope holds every scope's
	// policy (the default included), so an apply judges each as planned.
	Retention skill.Retention
	PerScope  map[skill.Scope]skill.Retention
	// Excludes are the run's --exclude patterns, normalized to the root.
	Excludes []string
	// Items are the removals in removed[] order (path order).
	Items []Item
	// Digest is "sha256:" and the hex SHA-256 of the plan's canonical
	// encoding (Canonical); Encode sets it, Decode checks it.
	Digest string
}

// Item is one planned removal: the dry-run's removed[] object and the
// identity it was judged by.
type Item struct {
	Path      string
	SizeBytes uint64
	Reason    skill.Reason
	// Entry is set for an entry of a store (SPEC D2), as removed[]
	// writes it.
	Entry    *Entry
	Identity Identity
}

// Entry says which entry of a store an item stands for: the memory
// entry's id, or the ledger line's number and timestamp text.
type Entry struct {
	Store     string
	ID        string
	Line      int
	Timestamp string
}

// Identity is what an item must still be for an apply to remove it. A
// file on disk: device, inode, size, mtime and ctime as scanned. An
// object: its size, LastModified and ETag. An entry: the SHA-256 (hex) of
// its bytes and their length. Fields a root cannot give are zero.
type Identity struct {
	Size     int64
	MtimeNs  int64
	Dev, Ino uint64
	CtimeNs  int64
	ETag     string
	SHA256   string
}

// Diff names the fields in which now differs from the planned identity,
// in a fixed order ("size", "mtime", "dev", "ino", "ctime", "etag",
// "bytes"); none when they agree.
func (id Identity) Diff(now Identity) []string {
	var d []string
	for _, f := range []struct {
		name string
		same bool
	}{{"size", id.Size == now.Size}, {"mtime", id.MtimeNs == now.MtimeNs}, {"dev", id.Dev == now.Dev},
		{"ino", id.Ino == now.Ino}, {"ctime", id.CtimeNs == now.CtimeNs}, {"etag", id.ETag == now.ETag},
		{"bytes", id.SHA256 == now.SHA256}} {
		if !f.same {
			d = append(d, f.name)
		}
	}
	return d
}

// Error is a plan file that cannot be applied: Kind says why.
type Error struct {
	Kind ErrorKind
	// Got is the plan's planVersion (KindVersion) or its root
	// (KindRoot); Want what this run needs.
	Got, Want string
	// Err is the cause of KindUnreadable.
	Err error
}

// ErrorKind is why a plan is refused.
type ErrorKind string

// The kinds of plan errors.
const (
	// KindUnreadable: not a plan river gc wrote (not JSON, members
	// missing or unknown).
	KindUnreadable ErrorKind = "unreadable"
	// KindVersion: a plan of another format version.
	KindVersion ErrorKind = "version"
	// KindDigest: the plan's bytes are not those its digest was made
	// over: it was changed since it was written.
	KindDigest ErrorKind = "digest"
	// KindRoot: a plan for another root.
	KindRoot ErrorKind = "root"
)

func (e *Error) Error() string {
	switch e.Kind {
	case KindUnreadable:
		return "not a river gc plan: " + e.Err.Error()
	case KindVersion:
		return "plan format version " + e.Got + ", this river gc reads " + e.Want
	case KindRoot:
		return "plan for root " + e.Got + ", not " + e.Want
	}
	return "plan digest does not match its contents"
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Has reports whether path is one of the plan's items.
func (p *Plan) Has(path string) bool {
	_, ok := slices.BinarySearchFunc(p.Items, path, func(it Item, path string) int { return strings.Compare(it.Path, path) })
	return ok
}
