#!/usr/bin/env bash
# Runs river-gc with the action's inputs (action.yml passes them as
# environment variables), always with --json into the result file, and
# with --summary-file "$GITHUB_STEP_SUMMARY" unless summary is false. The
# result file's path goes to the step's outputs whatever the exit code;
# the step ends with river-gc's own exit code (0, 1 or 2).
#
# Lists (scopes, excludes) take one value a line; blank lines are skipped.
# retention-days, max-entries and max-size-mb take one value a line (or
# separated by spaces), each a flag of its own: "90" and "tmp=7".
#
# The binary is RIVER_GC_ACTION_BIN, which action.yml sets from the
# install step's output (a step's env wins over the job's); RIVER_GC_BIN
# from the job's environment is ignored, and the path must be absolute.
set -uo pipefail

bin=${RIVER_GC_ACTION_BIN:-}
unset RIVER_GC_BIN
case "$bin" in
  /*) [ -x "$bin" ] && [ -f "$bin" ] || { echo "::error title=river-gc::$bin (from the install step) is not an executable file" >&2; exit 2; } ;;
  *) echo "::error title=river-gc::no river-gc from the install step (RIVER_GC_ACTION_BIN='$bin' is not an absolute path)" >&2; exit 2 ;;
esac
result=${INPUT_RESULT_FILE:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/gc-result.json}
args=(--json --output-file "$result")

while IFS= read -r line; do
  [ -n "$line" ] && args+=(--scope "$line")
done <<< "$(printf '%s\n' "${INPUT_SCOPES:-}" | tr ' ' '\n')"
while IFS= read -r line; do
  [ -n "$line" ] && args+=(--exclude "$line")
done <<< "${INPUT_EXCLUDES:-}"

for pair in "retention-days:${INPUT_RETENTION_DAYS:-}" "max-entries:${INPUT_MAX_ENTRIES:-}" \
  "max-size-mb:${INPUT_MAX_SIZE_MB:-}"; do
  name=${pair%%:*}
  while IFS= read -r line; do
    [ -n "$line" ] && args+=("--$name" "$line")
  done <<< "$(printf '%s\n' "${pair#*:}" | tr ' \t\r' '\n\n\n')"
done
for pair in "root:${INPUT_ROOT:-}" "lang:${INPUT_LANG:-}" "keep-within:${INPUT_KEEP_WITHIN:-}" \
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

# Plan and apply (plan.sh): --plan-out or --force --apply.
plan_file=""
# shellcheck source=plan.sh
. "$(dirname "${BASH_SOURCE[0]}")/plan.sh" || exit 2

mkdir -p "$(dirname "$result")"
"$bin" "${args[@]}"
code=$?
plan_summary
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "result-file=$result"
    [ -z "$plan_file" ] || echo "plan-file=$plan_file"
    echo "exit-code=$code"
  } >> "$GITHUB_OUTPUT"
fi
exit "$code"
