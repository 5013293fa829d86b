#!/usr/bin/env bash
# bench/testsuite.sh [BEFORE_DIR]: the README's `go test ./...` from cold
# caches (an empty GOCACHE and XDG_CACHE_HOME, so internal/testbin and
# internal/upstream start empty too; the module cache stays warm, to spare
# the network), printing per test package its wall time and its CPU time
# (user+sys of the binary and of every process it started: builds, npm,
# node, git, strace) as a Markdown table, then the whole command's. With
# BEFORE_DIR (another checkout, e.g. `git worktree add /tmp/before main`)
# both run cold at the same time, so that the load is the same for both,
# and the table has both columns. CPU is what to compare on a shared
# machine; wall time follows the load. Extra go test flags come from
# $GOTESTFLAGS (e.g. "-race"). Run it at the repository root.
set -euo pipefail

if [ "${1:-}" = --exec ]; then # go test -exec: time one test binary, run in its package's directory
  shift
  pkg=${PWD#"$TESTSUITE_ROOT"}
  exec /usr/bin/time -a -o "$TESTSUITE_TIMES" -f "./${pkg#/} %e %U %S" "$@"
fi

self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

cold() { # name dir
  local g x
  g=$(mktemp -d) x=$(mktemp -d)
  (cd "$2" && TESTSUITE_ROOT=$PWD TESTSUITE_TIMES="$out/$1.times" GOCACHE=$g XDG_CACHE_HOME=$x GORACE=atexit_sleep_ms=0 \
    /usr/bin/time -o "$out/$1.total" -f '%e %U %S' go test ${GOTESTFLAGS:-} -exec "$self --exec" ./... > "$out/$1.log" 2>&1) ||
    echo "$1: go test failed (see below)" >&2
  grep -E '^(FAIL|---|panic:)' "$out/$1.log" >&2 || true
  chmod -R u+w "$g" "$x" && rm -rf "$g" "$x"
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
cold after "$PWD" &
[ -n "${1:-}" ] && cold before "$1" &
wait
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

row() { # package file: "wall cpu" of the package's test binary
  awk -v n="$1" '$1 == n { printf "%.0f s | %.1f s", $2, $3 + $4 }' "$2"
}
if [ -n "${1:-}" ]; then
  echo "| package | wall | CPU | before: wall | before: CPU |"
  echo "|---|---|---|---|---|"
else
  echo "| package | wall | CPU |"
  echo "|---|---|---|"
fi
awk '{ print $3 + $4, $1 }' "$out/after.times" | sort -rn | while read -r _ name; do
  if [ -n "${1:-}" ]; then
    echo "| $name | $(row "$name" "$out/after.times") | $(row "$name" "$out/before.times") |"
  else
    echo "| $name | $(row "$name" "$out/after.times") |"
  fi
done
for n in after before; do
  [ -f "$out/$n.total" ] || continue
  read -r wall user sys < <(tail -1 "$out/$n.total")
  binaries=$(awk '{ s += $3 + $4 } END { print s }' "$out/$n.times")
  echo "$n: go test ./... $wall s wall, $user s user + $sys s system = $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') s CPU," \
    "of which the test binaries $binaries s and the rest (compiling, linking, vetting them) the remainder"
done
