//go:build linux

// Package journal is river gc's intent journal (SPEC B4): before a --force
// run deletes (or rewrites) a file, it appends what it is about to do to a
// private file under the root and fsyncs it, so that a run killed at any
// instruction (SIGKILL, the OOM killer, a power cut after the fsync) leaves
// a record the next run reads: every journaled file that is now gone, or
// no longer the file that was journaled, is reported as changed by the
// killed run.
//
// The journal lives at Path (.river/gc-journal) when .river is a real
// directory of the root that river gc may create a file in, else at
// AltPath (artifacts/.river-gc-journal); Recover reads both.
// Neither is in any scope: scopes are the directories .river/memory,
// .river/tmp, .river/runs, artifacts/evals and artifacts/.tmp, and the
// artifacts/review-artifact*.json and artifacts/review-*.md names. It is
// opened through the root descriptor, never through a symlink (O_NOFOLLOW
// on the directory and the file), created with O_EXCL, and an existing
// journal is appended to only if it is a regular file with one link.
//
// # Format
//
// Text lines, each ending in '\n'. The first line of the file is Header.
// Each run that writes to the journal starts with "run", then one line per
// intent, "<op> <dev> <ino> <size> <mtime-ns> <path>" with the path in Go
// quoted form (strconv.Quote: any byte, newline and invalid UTF-8
// included, reads back exactly), and "done" when the run's deletions have
// ended. A last line without '\n' is a write the kill cut short: its batch
// was never fsynced, so nothing of it was acted on; it is ignored. A line
// may be up to maxLine (4 MiB) long, and Intend writes no line the reader
// would not read back exactly. The reader reads every intent line that
// parses wherever it stands and counts the others (Recovered.Unreadable);
// a journal with such lines is set aside, not deleted (decision 133).
//
// # Residual window
//
// The journal over-reports, never under-reports: an intent is fsynced
// before the file is touched, so a kill between the fsync and the unlink
// leaves a journaled file that still exists (not reported: it is still the
// journaled file) — only a file that vanished for another reason after the
// fsync (another process deleted it) is reported as the killed run's. A
// file the killed run renamed to its private name and did not unlink is
// not reported (Recover looks under the private name too). A file the next
// run's record already names is named again if that run is killed after
// writing its record and before removing the journal. A journal that
// cannot be written (disk full, read-only) stops the run before it deletes
// anything of the batch. Only what reaches the disk is a record: a journal
// on a file system that acknowledges fsync without persisting it is as
// weak as that file system.
package journal

import (
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
// (a journal set aside, Recovered.SetAside). Nothing may write over it.
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

// Header is the journal's first line (without its newline).
const Header = "river-gc-journal 1"

// Op is what a run intends to do with a file.
type Op string

// The operations a journal records.
const (
	Delete  Op = "delete"  // unlink the file
	Rewrite Op = "rewrite" // replace the file in place (temp file + rename)
	// Temp names the copy a rewrite is about to link under a temporary
	// name and rename over its store, with the copy's identity: a file
	// still there with exactly that identity is a killed rewrite's
	// leftover, which the next --force run removes (decision 223).
	Temp Op = "temp"
)

// Intent is one file a run is about to delete or rewrite, with the
// identity it has now: Dev, Ino, Size and MtimeNs as scanned (st_mtim as
// tv_sec*1e9 + tv_nsec).
type Intent struct {
	Op       Op
	Path     string // root-relative, '/'-separated, canonical
	Dev, Ino uint64
	Size     int64
	MtimeNs  int64
}

// appendLine appends the intent's journal line to b.
func (in Intent) appendLine(b []byte) []byte {
	b = append(b, in.Op...)
	b = append(b, ' ')
	b = strconv.AppendUint(b, in.Dev, 10)
	b = append(b, ' ')
	b = strconv.AppendUint(b, in.Ino, 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, in.Size, 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, in.MtimeNs, 10)
	b = append(b, ' ')
	b = appendQuoted(b, in.Path)
	return append(b, '\n')
}

// appendQuoted is strconv.AppendQuote, byte for byte, with a fast path
// for a path of printable ASCII without '"' or '\\' (what strconv copies
// unchanged): strconv looks at every rune on its own, which was 4% of a
// --force run's CPU on issue 27's deep tree, whose paths are 250 bytes
// long (decision 280).
func appendQuoted(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' || c == '"' || c == '\\' {
			return strconv.AppendQuote(b, s)
		}
	}
	return append(append(append(b, '"'), s...), '"')
}

// journalable reports whether the intent, written as a line of n bytes,
// reads back (parseIntent): a known Op, a canonical path, n ≤ maxLine.
func (in Intent) journalable(n int) bool {
	return known(in.Op) && canonical(in.Path) && n <= maxLine
}

// known reports whether op is one of the operations a journal records.
func known(op Op) bool { return op == Delete || op == Rewrite || op == Temp }

// parseIntent reads one intent line (without its newline).
func parseIntent(line string) (Intent, bool) {
	f := strings.SplitN(line, " ", 6)
	if len(f) != 6 || !known(Op(f[0])) {
		return Intent{}, false
	}
	var in Intent
	var err [4]error
	in.Op = Op(f[0])
	in.Dev, err[0] = strconv.ParseUint(f[1], 10, 64)
	in.Ino, err[1] = strconv.ParseUint(f[2], 10, 64)
	in.Size, err[2] = strconv.ParseInt(f[3], 10, 64)
	in.MtimeNs, err[3] = strconv.ParseInt(f[4], 10, 64)
	for _, e := range err {
		if e != nil {
			return Intent{}, false
		}
	}
	p, e := strconv.Unquote(f[5])
	if e != nil || !canonical(p) {
		return Intent{}, false
	}
	in.Path = p
	return in, true
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
