// Package gitignore decides whether a repository-relative file path is
// excluded by a list of .gitignore patterns, exactly as
// `git check-ignore --no-index` decides for a root-level .gitignore holding
// those patterns one per line, and validates single patterns (SPEC A5).
//
// The plan gate must give the same answer git would, so the package ports
// git's own algorithms (dir.c pattern parsing, wildmatch.c matching, and the
// rule that a file under an excluded directory stays excluded) instead of
// approximating them with a glob library or regular expressions. Its tests
// compare it against a real git binary.
//
// The package is pure: it must not touch the file system, run git, read
// configuration or the clock, or keep global state. Whether a path is a
// directory is not looked up; Match is told the path names a regular file
// and treats its leading components as directories. Matching is byte-wise
// and case-sensitive (core.ignorecase=false); patterns are NFC-normalised
// at compile time and paths are expected to be NFC already.
package gitignore
