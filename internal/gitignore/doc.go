// Package gitignore decides whether a repository-relative file path is
// excluded by a list of .gitignore patterns, exactly as
// `git check-ignore --no-index` decides for a root-level .gitignore holding
// those patterns one per line, and validates single patterns (SPEC A5).
//
// The matcher is the project's own, written from the documented behaviour
// (gitignore(5)) and from black-box runs of `git check-ignore`; it contains
// no code taken from git. Its tests compare it against a real git binary:
// a table of rows that record git's verdicts in the odd corners, and two
// seeded random corpora (docs/decisions/skill.md, 68–70).
//
// How it works: each line is cleaned (one trailing CR, unescaped trailing
// spaces) and parsed into a rule (negation, directory-only, anchored or
// basename); the pattern's literal prefix is compared as a string and the
// rest is compiled into tokens, one per byte-consuming step or '*' run,
// which are matched by simulating their automaton with one set of live
// states per byte, so each rule costs O(tokens × path length) and nothing
// backtracks. Rules are indexed by the bytes a matching path can end with.
//
// The package is pure: it must not touch the file system, run git, read
// configuration or the clock, or keep global state. Whether a path is a
// directory is not looked up; Match is told the path names a regular file
// and treats its leading components as directories. Matching is byte-wise
// and case-sensitive (core.ignorecase=false); patterns are NFC-normalised
// at compile time and paths are expected to be NFC already.
package gitignore
