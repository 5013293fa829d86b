// Command river-gc is `river gc` (seed 000, SPEC Part B; SPEC is
// docs/spec.md): it scans River Review's artifact scopes, asks the
// plangate-gc engine what to remove, and deletes it only with --force. All
// logic lives in run and the packages it calls.
//
// Usage:
//
//	river-gc [flags]
//
// Examples (seed 000):
//
//	river-gc                                  # dry-run: list, delete nothing
//	river-gc --force                          # delete
//	river-gc --force --json --output-file ./artifacts/gc-result.json
//	river-gc --scope memory --scope evals --retention-days 30
//	river-gc --force --exclude 'artifacts/keep/**'
//
// Flags:
//
//	--retention-days N     remove entries older than N days (default 90)
//	--max-entries N        keep at most N entries per scope (default 1000)
//	--max-size-mb N        keep at most N MB (1048576 bytes) per scope
//	                       (default 500)
//	--now RFC3339          pin the reference time (default: the clock,
//	                       which breaks determinism)
//	--scope SCOPE          memory, evals, review-artifacts, tmp or all;
//	                       repeatable, one value per flag (default all)
//	--exclude GLOB         protect paths matching a .gitignore-syntax glob;
//	                       repeatable, one value per flag
//	--dry-run              list candidates only (the default without
//	                       --force; wins over --force)
//	--force                actually delete
//	--json                 the machine-readable result on stdout; the
//	                       summary goes to stderr
//	--output-file PATH     write the --json result to PATH atomically
//	                       (temporary file + rename); needs --json
//	--quiet                no human summary (errors still go to stderr)
//	--debug                verbose stderr logging
//	--root DIR             repository root all scopes are relative to
//	                       (default .)
//	--emit-inventory       write one plangate-gc input document per
//	                       non-empty scope and exit; `river-gc
//	                       --emit-inventory | plangate-gc --json`
//	                       reproduces the judgement
//	--timestamp metadata|mtime
//	                       artifact metadata timestamps with mtime fallback
//	                       (default metadata), or mtime only
//	--lang en|ja           language of the human summary (default en)
//
// Numbers are JSON numbers (1e3 is fine) and are echoed verbatim in the
// result's retention; --max-entries must be integral.
//
// Config errors (exit 2, message on stderr, nothing scanned or deleted):
// unknown --scope; malformed --exclude (SPEC A5); --retention-days not a
// number or < 0; --max-entries not an integer >= 1; --max-size-mb not a
// number > 0; --now not RFC 3339; --output-file without --json; --quiet
// with --debug; a missing or non-directory --root; an unknown flag.
//
// Exit codes: 0 on success with errors[] empty (dry-run or force); 1 when
// errors[] is not empty or another --force run holds the lock on the root;
// 2 for a config error.
package main
