#!/usr/bin/env bash
# Runs river-gc with the action's inputs (action.yml passes them as
# environment variables), always with --json into the result file, and
# with --summary-file "$GITHUB_STEP_SUMMARY" unless summary is false. The
# result file's path goes to the step's outputs whatever the exit code;
# the step ends with river-gc's own exit code (0, 1 or 2).
#
# Lists (scopes, excludes) take one value a line; blank lines are skipped.
set -uo pipefail

bin=${RIVER_GC_BIN:-river-gc}
result=${INPUT_RESULT_FILE:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/gc-result.json}
args=(--json --output-file "$result")

while IFS= read -r line; do
  [ -n "$line" ] && args+=(--scope "$line")
done <<< "$(printf '%s\n' "${INPUT_SCOPES:-}" | tr ' ' '\n')"
while IFS= read -r line; do
  [ -n "$line" ] && args+=(--exclude "$line")
done <<< "${INPUT_EXCLUDES:-}"

for pair in "retention-days:${INPUT_RETENTION_DAYS:-}" "max-entries:${INPUT_MAX_ENTRIES:-}" \
  "max-size-mb:${INPUT_MAX_SIZE_MB:-}" "root:${INPUT_ROOT:-}" "lang:${INPUT_LANG:-}" \
  "timestamp:${INPUT_TIMESTAMP:-}" "now:${INPUT_NOW:-}"; do
  name=${pair%%:*}
  value=${pair#*:}
  [ -n "$value" ] && args+=("--$name" "$value")
done

case "${INPUT_FORCE:-false}" in
  true) args+=(--force) ;;
  false) ;;
  *) echo "::error title=river-gc::input force must be true or false, not '${INPUT_FORCE}'" >&2; exit 2 ;;
esac
case "${INPUT_SUMMARY:-true}" in
  true) [ -n "${GITHUB_STEP_SUMMARY:-}" ] && args+=(--summary-file "$GITHUB_STEP_SUMMARY") ;;
  false) ;;
  *) echo "::error title=river-gc::input summary must be true or false, not '${INPUT_SUMMARY}'" >&2; exit 2 ;;
esac

mkdir -p "$(dirname "$result")"
"$bin" "${args[@]}"
code=$?
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "result-file=$result"
    echo "exit-code=$code"
  } >> "$GITHUB_OUTPUT"
fi
exit "$code"
