# Sourced by run.sh: the action's plan-out and apply inputs (SPEC J3).
# plan-out adds --plan-out (a dry-run: force must be false) and, after the
# run, appends the plan's digest and size to the step summary; apply adds
# --apply (force must be true). plan_file is the plan written, for the
# step's outputs and the upload step.

plan_out=${INPUT_PLAN_OUT:-}
plan_apply=${INPUT_APPLY:-}
if [ -n "$plan_out" ] && [ -n "$plan_apply" ]; then
  echo "::error title=river-gc::inputs plan-out and apply cannot be used together" >&2
  return 1
fi
if [ -n "$plan_out" ]; then
  if [ "${INPUT_FORCE:-false}" = true ]; then
    echo "::error title=river-gc::input plan-out writes a plan and deletes nothing: set force to false (a later job applies the plan)" >&2
    return 1
  fi
  mkdir -p "$(dirname "$plan_out")"
  args+=(--plan-out "$plan_out")
fi
if [ -n "$plan_apply" ]; then
  if [ "${INPUT_FORCE:-false}" != true ]; then
    echo "::error title=river-gc::input apply deletes: set force to true" >&2
    return 1
  fi
  args+=(--apply "$plan_apply")
fi

# plan_summary appends the written plan's digest and size to the step
# summary (its removals are in the summary river-gc wrote above it) and
# sets plan_file.
plan_summary() {
  [ -n "$plan_out" ] && [ -f "$plan_out" ] || return 0
  plan_file=$plan_out
  [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ "${INPUT_SUMMARY:-true}" = true ] || return 0
  local digest count
  digest=$(sed -n 's/^  "digest": "\(sha256:[0-9a-f]*\)"$/\1/p' "$plan_out")
  count=$(grep -c '^      "reason": ' "$plan_out")
  {
    echo ""
    echo "### river gc plan"
    echo ""
    echo "Items this plan removes: $count (listed above). Digest: \`$digest\`."
    echo "Approving the apply job deletes exactly these items, each only if it is still what was planned."
  } >> "$GITHUB_STEP_SUMMARY"
}
