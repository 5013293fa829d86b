// Command plangate-gc is River Review's skill plangate-gc-deterministic as
// a program: it reads JSON inventory documents on stdin and prints
// KEEP/REMOVE review lines or JSON (docs/plangate-gc.md; the full contract
// is docs/spec.md). All logic lives in run and the packages it calls.
//
// Usage:
//
//	plangate-gc [judge] [--format text|review|json|findings|artifact] [--merge] [--json] [--lang ja|en] [-i|--input FILE]
//	plangate-gc schema
//	plangate-gc eval [DIR] [--json] [--run REGEX] [--update]
//	plangate-gc completion bash|zsh|fish
//	plangate-gc --help | --version
//
// Every command takes
//
//	-h, --help      show the help (of the command named before it)
//	--version       print the version: the release tag; for a source
//	                build the tag or pseudo-version Go stamps from the
//	                checkout (it names the revision), else "devel" and
//	                the revision
//
// judge (the default command) reads one or more concatenated JSON documents
// (JSON Lines is fine) from stdin, or from FILE with --input, and judges
// each on its own, writing one output block per document in input order:
//
//	--json          one compact JSON object per document instead of
//	                review lines; same as --format json
//	--format F      text (default: <file>:<line>: <message> review lines),
//	                review (lines River Review's engine keeps), json,
//	                findings (River Review output.schema.json) or
//	                artifact (Review Artifact)
//	--merge         with findings or artifact: one document for the whole
//	                stream
//	--lang ja|en    language of the review lines and messages (default
//	                ja, whatever the locale: the review lines are a
//	                contract River Review reads)
//	-i, --input F   read the documents from F instead of stdin
//
// A document that fails the gate prints exactly
//
//	NO_REVIEW: plangate-gc-deterministic — inventory / retention config が不足
//
// on stdout and its reasons (JSON pointer and message, sorted) on stderr.
//
// schema prints the embedded input JSON Schema (schemas/input.schema.json).
//
// completion prints a bash, zsh or fish completion script generated from
// the parser's own model of the command line (source <(plangate-gc
// completion bash)); the man page, docs/man/plangate-gc.1, is generated
// from the same model.
//
// eval runs the evaluation harness over the fixture cases in DIR (default
// fixtures; format in fixtures/README.md). For every case it checks the
// exact bytes (unified diff on failure), runs the input twice and under 8
// seeded permutations of inventory.paths and hardGuards (all outputs must
// be identical), and checks the engine's invariants on the JSON output: no
// hard-guarded or excluded path removed; removed sorted, unique, one reason
// from age/count/size; every removed path canonical, in scope and in the
// inventory; keep + remove = the distinct in-scope files; only the seven
// documented warning kinds. It prints one line per case (ok/FAIL, name, time),
// failures indented below, and last "N passed, N failed".
//
//	--json          a machine-readable report
//	--run REGEX     only the cases whose name matches REGEX
//	--update        rewrite expectation files from the current output
//	                (refused for a case failing determinism or invariants)
//
// Exit codes: 0 for every verdict (ok, handoff, NO_REVIEW);
// 1 for an I/O failure, or eval with a failing case; 2 for a usage error
// (unknown flag, bad --lang, bad --run regex, missing eval DIR).
package main
