//go:build linux

package scan

import "github.com/plangate-gc/plangate-gc/skill"

// This file is what a run on a store without descriptors (a bucket, SPEC
// H2) shares with the disk scan, so that the same tree gives the same
// files, timestamps and runs on both: which direct children of
// artifacts/ scope review-artifacts lists, how a *.json body's metadata
// timestamp is read, and how an eval run's files take the run's
// timestamp.

// IsReviewArtifactKey reports whether a direct child of artifacts/ named
// name is listed in scope review-artifacts (the disk's filter).
func IsReviewArtifactKey(name string) bool { return isReviewArtifactName([]byte(name)) }

// IsJSONName reports whether a name is read for a metadata timestamp.
func IsJSONName(name string) bool { return isJSON([]byte(name)) }

// MetadataTimestamp returns the metadata timestamp of a *.json body read
// whole (SPEC Part B), exactly as the disk scan reads a file: a body over
// MetadataByteCap, invalid JSON, a document that is not an object or
// names a field twice is judged by its mtime (ok false, with a reason).
func MetadataTimestamp(body []byte, size int64) (sec int64, ok bool, reason MetaReason) {
	if size > MetadataByteCap || len(body) > MetadataByteCap {
		return 0, false, ReasonTooLarge
	}
	ts, err := parseMetadata(body)
	switch {
	case err == errAmbiguous:
		return 0, false, ReasonAmbiguous
	case err != nil:
		return 0, false, ReasonInvalid
	}
	return ts.sec, ts.ok, ""
}

// FinishObjects puts the files of a scope listed from objects in the
// disk scan's order and gives eval runs their run timestamps (scope
// evals, with metadata).
func FinishObjects(scope skill.Scope, files []File, metadata bool) {
	if scope == skill.ScopeEvals && metadata {
		applyRunTimestamps(files)
	}
}
