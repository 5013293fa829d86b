// Package fserr is the typed form of every file-system problem river gc
// reports: scan, sweep and gc return *Error values carrying what was being
// done (Op), where (Path) and why (Err, a system errno or one of the
// sentinel causes below). They never word a message for people; the
// report package does that from the ja/en catalog, so a Japanese summary
// prints Japanese errors and tests use errors.Is and errors.As.
package fserr

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/sys/unix"
)

// Op names the operation that failed.
type Op string

// The operations river gc performs on the file system.
const (
	OpOpenRoot  Op = "open-root"  // opening or locking the root directory
	OpOpenDir   Op = "open-dir"   // opening a directory below the root
	OpReadDir   Op = "read-dir"   // listing a directory
	OpStat      Op = "stat"       // examining an entry
	OpReadMeta  Op = "read-meta"  // reading a JSON file's metadata timestamp
	OpJudge     Op = "judge"      // handing a file to the engine
	OpDelete    Op = "delete"     // deleting a file
	OpRestore   Op = "restore"    // putting back a file held under a private name
	OpLock      Op = "lock"       // taking the root's lock
	OpReadStore Op = "read-store" // reading a single source whose entries are judged (SPEC D2)
	OpRewrite   Op = "rewrite"    // rewriting a single source without removed entries (SPEC D5)
	OpJournal   Op = "journal"    // reading or writing the intent journal
)

// Sentinel causes, for errors.Is. An errno from the kernel is a cause too.
var (
	ErrChanged    = errors.New("changed since scan")
	ErrNotRegular = errors.New("not a regular file")
	ErrNotDir     = errors.New("not a directory")
	ErrOtherMount = errors.New("on another mount")
	ErrNotUTF8    = errors.New("name is not valid UTF-8")
	ErrTooLarge   = errors.New("beyond 2^53-1")
	// ErrNotStore: a single source whose entries are judged is not in the
	// form its writer gives it (SPEC D3: a Riverbed index must be one
	// object with an entries array).
	ErrNotStore    = errors.New("not in its writer's form")
	ErrInterrupted = errors.New("interrupted")
	ErrLocked      = errors.New("locked by another run")
	// ErrUnknownScope: a scan was asked for a scope the engine does not know.
	ErrUnknownScope = errors.New("unknown scope")
	// ErrBadPath: a path handed to sweep is not a canonical root-relative
	// path (empty, absolute, NUL, not UTF-8, empty or "."/".." segment,
	// or, for a restore, not a private name).
	ErrBadPath = errors.New("not a canonical root-relative path")
	// ErrPrivateExists: the private name a file is renamed to before its
	// deletion is already in use, so the file was not deleted.
	ErrPrivateExists = errors.New("private name already in use")
	// ErrNameTaken: a file held under its private name could not be put
	// back because another file now has its original name (never
	// overwritten).
	ErrNameTaken = errors.New("original name taken")
	// ErrJournalCorrupt: the intent journal holds a line that is not in
	// its format (a last line cut short by a kill is not an error).
	ErrJournalCorrupt = errors.New("journal not in its format")
	// ErrLinked: a private file river gc writes to has other hard links.
	ErrLinked = errors.New("has other hard links")
	// ErrTrackedJournal: a name river gc keeps its intent journal under
	// is tracked in the git index: river gc never writes, renames or
	// removes it, and a --force run refuses before it changes anything
	// (decision 346).
	ErrTrackedJournal = errors.New("journal name tracked in the git index")
)

// Error is one file-system problem on one root-relative path.
type Error struct {
	Op Op
	// Path is root-relative, as the file system names it ("." is the
	// root): it may hold bytes that are not UTF-8, which the edges
	// encode without ambiguity (decision 45).
	Path string
	Err  error
}

// Error renders a developer-facing English form; people see the catalog's.
func (e *Error) Error() string { return string(e.Op) + " " + e.Path + ": " + e.Err.Error() }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// New returns an *Error for path, kept byte for byte: a name that is not
// valid UTF-8 and a valid name spelling "\xff" must never share one
// string in the record (SPEC B4).
func New(op Op, path string, err error) *Error {
	return &Error{Op: op, Path: path, Err: err}
}

// Kind is a file type as found in st_mode, for causes that say what an
// entry turned out to be.
type Kind uint32

// KindOf returns the Kind of an st_mode value.
func KindOf(mode uint32) Kind { return Kind(mode & unix.S_IFMT) }

// String is the Kind's catalog key, e.g. "symlink".
func (k Kind) String() string {
	switch uint32(k) {
	case unix.S_IFLNK:
		return "symlink"
	case unix.S_IFDIR:
		return "directory"
	case unix.S_IFIFO:
		return "fifo"
	case unix.S_IFSOCK:
		return "socket"
	case unix.S_IFCHR:
		return "char-device"
	case unix.S_IFBLK:
		return "block-device"
	case unix.S_IFREG:
		return "regular"
	}
	return "unknown"
}

// KindError says an entry is of kind Kind where something else was wanted;
// it wraps ErrNotRegular or ErrNotDir.
type KindError struct {
	Kind Kind
	Want error // ErrNotRegular or ErrNotDir
}

func (e *KindError) Error() string { return e.Want.Error() + " (" + e.Kind.String() + ")" }

// Unwrap returns Want.
func (e *KindError) Unwrap() error { return e.Want }

// Field names one part of a file's identity.
type Field string

// The identity fields compared before a deletion.
const (
	FieldInode Field = "inode" // device or inode differ: another file
	FieldSize  Field = "size"
	FieldMtime Field = "mtime"
	FieldCtime Field = "ctime"
	FieldETag  Field = "etag" // an object's ETag differs: it was rewritten (SPEC H3)
)

// ChangedError lists what differs between the scanned file and the one
// found at deletion time; it wraps ErrChanged.
type ChangedError struct {
	Fields           []Field
	OldSize, NewSize int64
}

func (e *ChangedError) Error() string {
	parts := make([]string, len(e.Fields))
	for i, f := range e.Fields {
		parts[i] = string(f)
	}
	return fmt.Sprintf("%v: %s", ErrChanged, strings.Join(parts, ", "))
}

// Unwrap returns ErrChanged.
func (e *ChangedError) Unwrap() error { return ErrChanged }

// Printable returns p with every byte that is not part of valid UTF-8
// written as \xNN; valid text (including a real U+FFFD) is kept.
func Printable(p string) string {
	if utf8.ValidString(p) {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRuneInString(p[i:])
		if r == utf8.RuneError && size == 1 {
			fmt.Fprintf(&b, `\x%02x`, p[i])
		} else {
			b.WriteString(p[i : i+size])
		}
		i += size
	}
	return b.String()
}

// InterruptedError is the one errors[] entry of a --force run stopped by
// SIGINT, SIGTERM, SIGHUP or SIGQUIT: NotAttempted deletions were never
// tried. It wraps
// ErrInterrupted.
type InterruptedError struct{ NotAttempted int }

func (e *InterruptedError) Error() string {
	return fmt.Sprintf("%v: %d deletions not attempted", ErrInterrupted, e.NotAttempted)
}

// Unwrap returns ErrInterrupted.
func (e *InterruptedError) Unwrap() error { return ErrInterrupted }

// OwnerError says a rewritten store could not be given back to its owner
// (UID, GID): river gc is not allowed to chown, and the new file would
// belong to the runner, so the original is left as it is.
type OwnerError struct{ UID, GID uint32 }

func (e *OwnerError) Error() string {
	return fmt.Sprintf("cannot give it back to its owner (uid %d, gid %d)", e.UID, e.GID)
}

// CopySizeError says the new copy of a rewritten store came to Got
// bytes where Want were announced (the splice's own length, decision
// 268): the copy is not what the engine judged, so the original is left
// as it is.
type CopySizeError struct{ Want, Got int64 }

func (e *CopySizeError) Error() string {
	return fmt.Sprintf("the new copy is %d bytes, not the %d announced", e.Got, e.Want)
}

// HeldError says a file was not deleted and could not be put back under
// its original name, so it is still held under Private (root-relative):
// Cause is why it was not deleted (e.g. a *ChangedError), Why why it was
// not renamed back (ErrNameTaken or an errno). Both are unwrapped.
type HeldError struct {
	Private    string
	Cause, Why error
}

func (e *HeldError) Error() string {
	return e.Cause.Error() + "; held as " + e.Private + ": " + e.Why.Error()
}

// Unwrap returns Cause and Why.
func (e *HeldError) Unwrap() []error { return []error{e.Cause, e.Why} }

// HeldDirError says a directory held whole under its private name while
// its files were deleted could not be put back (Why: ErrNameTaken or an
// errno): it is at Private, with whatever was not deleted in it.
type HeldDirError struct {
	Private string
	Why     error
}

func (e *HeldDirError) Error() string { return "held as " + e.Private + ": " + e.Why.Error() }

// Unwrap returns Why.
func (e *HeldDirError) Unwrap() error { return e.Why }

// NotJournaledError is the errors[] entry of a --force run whose intent
// journal could not be written (Cause, e.g. ENOSPC): the NotAttempted
// deletions that were not yet journaled were never tried.
type NotJournaledError struct {
	Cause        error
	NotAttempted int
}

func (e *NotJournaledError) Error() string {
	return fmt.Sprintf("%v; %d deletions not attempted", e.Cause, e.NotAttempted)
}

// Unwrap returns Cause.
func (e *NotJournaledError) Unwrap() error { return e.Cause }

// UnreadableJournalError says an intent journal holds Lines lines that
// are not in its format (a foreign first line, a garbled or unknown
// line): the lines that could be read are reported as interrupted, and
// the journal is moved to SetAside (root-relative, a name of river gc's
// own) by the --force run that writes its record, kept for people to
// inspect and read by no later run (decision 133). It wraps
// ErrJournalCorrupt.
type UnreadableJournalError struct {
	Lines    int
	SetAside string
}

func (e *UnreadableJournalError) Error() string {
	return fmt.Sprintf("%v: %d lines unreadable; set aside as %s", ErrJournalCorrupt, e.Lines, e.SetAside)
}

// Unwrap returns ErrJournalCorrupt.
func (e *UnreadableJournalError) Unwrap() error { return ErrJournalCorrupt }

// ErrNotJournalable: an intent the journal's format cannot hold (an
// unknown operation, a path that is not canonical, a line beyond the
// reader's bound); nothing of its batch is acted on.
var ErrNotJournalable = errors.New("cannot be written to the journal")
