//go:build linux

// Package outfile writes river gc's own output files, --output-file (the
// JSON record, atomically: a temporary file, then rename) and
// --summary-file (the Markdown summary, appended), and refuses, by path
// and by identity, any output path that could damage something: a
// non-regular file, an entry of a scope, a single source, or the place a
// scope directory belongs (SPEC B2). Its errors are typed (*Error,
// *SameFileError, *ProtectedError); the command words and classifies them.
package outfile
