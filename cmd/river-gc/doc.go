//go:build linux

// Command river-gc is River Review's `river gc`: it scans River Review's
// artifact scopes, asks the plangate-gc engine what to remove, and deletes
// it only with --force.
// https://github.com/plangate-gc/plangate-gc/blob/main/docs/scopes.md
// lists the paths each scope covers and what is protected;
// https://github.com/plangate-gc/plangate-gc/blob/main/docs/spec.md is the
// full contract. All logic lives in run and the packages it calls.
//
// Usage:
//
//	river-gc [flags]
//	river-gc completion bash|zsh|fish
//
// completion prints a shell completion script generated from the parser's
// own model of the flags (source <(river-gc completion bash)); the man
// page, docs/man/river-gc.1, is generated from the same model. It is a
// word, not a flag, because river-gc takes no other positional argument.
//
// Examples:
//
//	river-gc                                  # dry-run: list, delete nothing
//	river-gc --force                          # delete
//	river-gc --force --json --output-file ./artifacts/gc-result.json
//	river-gc --scope memory --scope evals --retention-days 30
//	river-gc --force --exclude 'artifacts/keep/**'
//	river-gc --plan-out plan.json             # review plan.json, then
//	river-gc --force --apply plan.json        # delete exactly what it lists
//	river-gc --root s3://artifacts/acme/web   # a bucket prefix, dry-run
//
// Flags:
//
//	--retention-days N     remove entries older than N days (default 90)
//	--max-entries N        keep at most N entries per scope (default 1000)
//	--max-size-mb N        keep at most N MB (1048576 bytes) per scope
//	                       (default 500); each of the three also takes
//	                       SCOPE=N for one scope (repeatable; the last of
//	                       each wins), e.g. --retention-days tmp=7
//	--keep-within DURATION keep every file and entry younger than
//	                       DURATION (24h, 7d, 1d12h) whatever the limits
//	                       say; they take no place in the count or size
//	                       limit (default off)
//	--now RFC3339          pin the reference time (default: the clock,
//	                       which breaks determinism)
//	--scope SCOPE          memory, evals, review-artifacts, tmp or all
//	                       (those four); the opt-in runs, memory-entries,
//	                       eval-ledger; repeatable, one value per flag
//	                       (default all)
//	--exclude GLOB         protect paths matching a .gitignore-syntax glob,
//	                       relative to the root ("./x" and an absolute
//	                       path inside the root are normalized; one that
//	                       can never match is a config error); repeatable,
//	                       one value per flag
//	--dry-run              list candidates only (the default without
//	                       --force; wins over --force)
//	--force                actually delete
//	--json                 the machine-readable result on stdout; the
//	                       summary goes to stderr
//	--json-format F        with --json: gc (the result above, the default),
//	                       findings or artifact (one River Review document
//	                       for the whole run)
//	--output-file PATH     write the --json result to PATH atomically
//	                       (temporary file + rename); needs --json
//	--plan-out FILE        a dry-run that also writes the reviewed plan:
//	                       every removal with its identity, the root,
//	                       scopes, policy, --now, the version and a digest;
//	                       refuses --force
//	--apply FILE           delete at most the plan's items, each only while it
//	                       is still what was planned; scopes, policy,
//	                       --keep-within, --now and --timestamp come from
//	                       it (--exclude
//	                       may add protection); without --force, a dry-run
//	                       of the apply
//	--quiet                no human summary (errors still go to stderr)
//	--debug                verbose stderr logging
//	--root DIR             repository root all scopes are relative to; it
//	                       must hold .river/ or artifacts/ (default: the
//	                       nearest such directory upward from here, or
//	                       the top of its git work tree when that holds
//	                       one); the summary and the JSON name it. Also
//	                       s3://BUCKET/PREFIX: a prefix of an
//	                       S3-compatible bucket (below)
//	--summary-file PATH    append the summary as Markdown (for
//	                       $GITHUB_STEP_SUMMARY), dry-run and force alike
//	--verbose              list every removal (a terminal otherwise gets
//	                       20 and a count, a CI log 200), and the
//	                       protected files with the rule that keeps each
//	                       (as bounded; the JSON's protectedFiles has all)
//	--explain PATH...      say which one rule keeps or removes each PATH
//	                       (files outside the scopes, directories and
//	                       links included; several paths, or repeat the
//	                       flag); changes nothing
//	--version              print the version: the release tag; for a
//	                       source build the tag or pseudo-version Go
//	                       stamps from the checkout (it names the
//	                       revision), else "devel" and the revision
//	-h, --help             show the help
//	--emit-inventory       write one plangate-gc input document per
//	                       non-empty scope and exit; `river-gc
//	                       --emit-inventory | plangate-gc --json`
//	                       reproduces the judgement
//	--timestamp metadata|mtime
//	                       artifact metadata timestamps with mtime fallback
//	                       (default metadata), or mtime only
//	--lang en|ja           language of the summary and messages (default:
//	                       ja when LC_ALL, LC_MESSAGES or LANG, the first
//	                       one set, starts with ja; else en)
//
// Paths on the command line (--explain, --root, --output-file,
// --summary-file) are relative to the current directory, as git's are;
// --exclude patterns are relative to the root.
//
// Numbers are JSON numbers (1e3 is fine) and are echoed verbatim in the
// result's retention; --max-entries must be integral.
//
// Timestamps: a CI checkout resets every mtime, so for *.json files the
// first top-level RFC 3339 value of timestamp, metadata.updatedAt,
// metadata.createdAt or generatedAt wins (streamed, 1 MiB cap); otherwise
// the file's mtime. --timestamp mtime disables metadata.
//
// Protected whatever the policy: the single sources and what a symlinked
// one points to, files tracked in the git index, .gitkeep and .keep.
// Deletion re-checks each file's identity at the moment of deletion
// (sweep's package doc); SIGINT, SIGTERM, SIGHUP or SIGQUIT during
// --force stops after the files in hand (one per deletion worker) and
// still writes the record (exit 1). The JSON record is written before
// anything else, so a closed stderr cannot cost it. Before deleting,
// --force journals its intents in .river/gc-journal (or
// artifacts/.river-gc-journal); after a SIGKILL the next run lists what
// the killed run deleted (JSON "interrupted", the summary), and a --force
// run removes the journal once its own record is written. A journal with
// lines that cannot be read (a disk error, a foreign file at its name) is
// read as far as it goes, named in errors[] (exit 1), and moved by that
// --force run to .river/gc-journal.unreadable-<n>, kept for you to
// inspect: the next run is a normal one.
//
// Buckets: --root s3://BUCKET/PREFIX judges the objects below PREFIX as
// the files of a checkout (the same scopes as key prefixes, policies,
// excludes, single sources and record). Endpoint, region and credentials
// come from the AWS SDK's standard chain (AWS_ENDPOINT_URL_S3, AWS_REGION,
// AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE); every delete
// carries the ETag that was judged, and --force first checks on a canary
// object that the server honours that condition (AWS S3 and SeaweedFS do;
// MinIO does not, so it gets no --force). docs/s3.md in the repository
// has the servers, a local recipe and the permissions.
//
// Plan and apply (a review before deleting, as terraform's plan/apply):
// --plan-out FILE writes the plan atomically (never over a non-regular
// file, a scope's entry or a single source), its removed[] byte for
// byte the dry-run record's, beside identities[] (a file: dev, ino,
// size, mtime, ctime; an object: size, LastModified, ETag; a store
// entry: the SHA-256 of its bytes) and a "digest", sha256 over the
// plan's canonical encoding. --force --apply FILE judges the tree again
// with the plan's policy (--keep-within included) and reference time
// and deletes only its items that are still removable, unchanged and
// unprotected (tracked, excluded, a single source, a live entry); each
// other planned item is kept with an errors[] entry naming why (exit
// 1); what is removable now but not planned is kept and counted
// (warning not-planned). A planned item already gone is counted
// (warning plan-gone; plan-applied when all are: a plan applied twice
// deletes nothing and says so). A plan changed by a byte, of another
// planVersion or for another root is a config error. The record, the
// journal, the lock and "interrupted" are every --force run's.
//
// Eval runs: a run is the shallowest directory below artifacts/evals/
// holding a *.json with a metadata timestamp (artifacts/evals/<run>/ in
// the flat layout, artifacts/evals/runs/<id>/ in a nested one). Its files
// without a timestamp of their own take the newest metadata timestamp at
// or below that directory, so a run goes or stays whole.
//
// Off a terminal, stderr gets a progress line every 10 s while scopes are
// scanned and files deleted (not with --quiet).
//
// The JSON result (its first keys fixed in this order, plus evidence[],
// warnings[] and per-scope protected and sources; schema:
// `plangate-gc schema gc-result`), abridged:
//
//	{
//	  "version": "1",
//	  "toolVersion": "v1.2.3", "root": "/home/me/project",
//	  "now": "2025-11-29T00:00:00Z", "durationMs": 41,
//	  "mode": "dry-run",
//	  "scopes": ["memory", "evals", "review-artifacts", "tmp"],
//	  "retention": {"days": 90, "maxEntries": 1000, "maxSizeMb": 500},
//	  "removed": [{"path": ".river/memory/snap/a.json", "sizeBytes": 37, "reason": "age"}],
//	  "keptSummary": {"memory": {"count": 2, "sizeBytes": 5}, "evals": {"count": 0, "sizeBytes": 0},
//	                  "review-artifacts": {"count": 0, "sizeBytes": 0}, "tmp": {"count": 1, "sizeBytes": 2}},
//	  "errors": []
//	}
//
// A weekly CI job runs
//
//	river-gc --force --json --output-file ./artifacts/gc-result.json
//
// and uploads the result whatever the exit code; a non-zero exit fails the
// step and with it the job (a workflow can then open an issue).
//
// Config errors (exit 2, message on stderr, nothing scanned or deleted):
// unknown --scope; malformed --exclude; --retention-days not a
// number or < 0; --max-entries not an integer >= 1; --max-size-mb not a
// number > 0; --now not RFC 3339; --output-file without --json; --quiet
// with --debug; a missing or non-directory --root, or one holding neither
// .river/ nor artifacts/; an empty value for any flag; an --output-file or
// --summary-file that exists and is not a regular file, lies in a scope or
// is a single source (a summary file with other hard links too); a
// --plan-out like it, or with --force or --apply; an --apply plan that is
// unreadable, changed, of another format version or for another root, or
// beside --scope, a policy flag, --keep-within, --now or --timestamp;
// --explain
// or --emit-inventory with flags that would write; an unknown flag or an
// argument (the message names the fix for -n, -f, "7d", "tmp:7", a glob
// the shell expanded, and "river-gc gc"). A per-scope value for a scope
// not selected, or given twice, is a warning.
//
// Exit codes: 0 on success with errors[] empty (dry-run or force); 1 when
// errors[] is not empty or another --force run holds the lock on the root;
// 2 for a config error.
package main
