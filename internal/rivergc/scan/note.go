//go:build linux

package scan

import (
	"cmp"
	"strings"

	"github.com/plangate-gc/plangate-gc/internal/fserr"
)

// NoteKind says what scan skipped or fell back on. Notes are not errors:
// river gc shows them only with --debug, worded by the caller.
type NoteKind string

// The kinds of Note.
const (
	// NoteSymlink: a symlink, never followed nor listed (also a scope
	// directory or a parent such as artifacts/ that is one).
	NoteSymlink NoteKind = "symlink-not-followed"
	// NoteOtherMount: a directory on another mount (another file system
	// or a bind mount); not descended.
	NoteOtherMount NoteKind = "other-mount"
	// NoteNotDir: a scope directory or one of its parents is not a
	// directory (Note.FileKind says what it is); nothing scanned there.
	NoteNotDir NoteKind = "not-a-directory"
	// NoteMissing: a scope directory or one of its parents does not
	// exist; an empty scope.
	NoteMissing NoteKind = "missing"
	// NoteSpecial: a FIFO, socket or device (Note.FileKind); never opened
	// nor listed.
	NoteSpecial NoteKind = "special-file"
	// NoteChanged: a directory was replaced between listing and opening it
	// (Note.FileKind says what it is now); not descended.
	NoteChanged NoteKind = "changed-during-scan"
	// NoteNestedRepo: a directory holding a ".git" entry, another
	// repository; not descended (also in Result.NestedRepos).
	NoteNestedRepo NoteKind = "nested-repo"
	// NoteMetadataUnusable: a *.json file whose metadata timestamp could
	// not be used (Note.Reason says why); its mtime is used instead.
	NoteMetadataUnusable NoteKind = "metadata-unusable"
)

// MetaReason says why a *.json file's metadata was not used.
type MetaReason string

// The reasons of NoteMetadataUnusable.
const (
	ReasonTooLarge  MetaReason = "too-large"     // larger than MetadataByteCap; not read
	ReasonGrew      MetaReason = "grew"          // grew beyond the cap while being read
	ReasonOpen      MetaReason = "open-failed"   // not permitted to open (Note.Err)
	ReasonStat      MetaReason = "stat-failed"   // not permitted to fstat (Note.Err)
	ReasonRead      MetaReason = "read-failed"   // not permitted to read (Note.Err)
	ReasonReplaced  MetaReason = "replaced"      // another file by the time it was opened
	ReasonInvalid   MetaReason = "invalid-json"  // not one well-formed JSON object
	ReasonAmbiguous MetaReason = "ambiguous-key" // a timestamp field occurs twice
)

// Note is one thing scan deliberately skipped or fell back on.
type Note struct {
	// Path is root-relative and printable (fserr.Printable).
	Path string
	// Kind says what happened.
	Kind NoteKind
	// FileKind is what the entry is, for NoteSymlink, NoteNotDir,
	// NoteSpecial and NoteChanged; zero otherwise.
	FileKind fserr.Kind
	// Reason is set for NoteMetadataUnusable.
	Reason MetaReason
	// Err is the system error behind ReasonOpen, ReasonStat or
	// ReasonRead (EACCES or EPERM), nil otherwise. Any other failure to
	// read metadata is an Error (fserr.OpReadMeta) and the file is not
	// listed.
	Err error
}

func compareNotes(a, b Note) int {
	return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(string(a.Kind), string(b.Kind)),
		strings.Compare(string(a.Reason), string(b.Reason)), cmp.Compare(a.FileKind, b.FileKind))
}
