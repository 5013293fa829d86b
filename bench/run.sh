#!/usr/bin/env bash
# Benchmarks with in-run baselines. Machines are noisy: every benchmark
# runs COUNT times and we report medians, and the skill is reported as a
# ratio to encoding/json decoding the same bytes, measured in the same run.
#
#   bash bench/run.sh            # 10k and 100k entries, 5 runs each
#   FULL=1 bash bench/run.sh     # also 1M entries and the binary's peak RSS
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-5}
sizes='entries=(10000|100000)$'
[ -n "${FULL:-}" ] && sizes='entries=(10000|100000|1000000)$'
out=$(mktemp)
go test ./pipeline -run '^$' -bench "^Benchmark(Judge|BaselineDecode)$/^${sizes}" \
  -benchtime 3x -count "$count" | tee "$out" >&2
go test ./gate ./gitignore -run '^$' -bench . -count "$count" | tee -a "$out" >&2

# median of ns/op, MB/s, B/op, allocs/op per benchmark name
awk '/^Benchmark/ {
  name=$1; sub(/-[0-9]+$/, "", name)
  for (i=2; i<=NF; i++) { if ($i=="ns/op") ns[name]=ns[name]" "$(i-1); if ($i=="MB/s") mb[name]=mb[name]" "$(i-1);
    if ($i=="B/op") bo[name]=bo[name]" "$(i-1); if ($i=="allocs/op") al[name]=al[name]" "$(i-1) }
  names[name]=1
}
function median(list,   a, n, i, j, t) {
  n = split(list, a, " "); if (n == 0) return "-"
  for (i=1; i<=n; i++) for (j=i+1; j<=n; j++) if (a[j]+0 < a[i]+0) { t=a[i]; a[i]=a[j]; a[j]=t }
  return (n % 2) ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
}
END {
  printf "| benchmark | median ns/op | MB/s | B/op | allocs/op |\n|---|---|---|---|---|\n"
  for (n in names) printf "| %s | %.0f | %s | %s | %s |\n", n, median(ns[n]), median(mb[n]), median(bo[n]), median(al[n]) | "sort"
  close("sort")
  printf "\n| entries | skill ÷ encoding/json decode (median ns/op ratio) |\n|---|---|\n"
  for (n in names) if (n ~ /^BenchmarkJudge\//) {
    b = n; sub(/^BenchmarkJudge/, "BenchmarkBaselineDecode", b); e = n; sub(/.*entries=/, "", e)
    if (b in names) printf "| %s | %.2f |\n", e, median(ns[n]) / median(ns[b])
  }
}' "$out"

if [ -n "${FULL:-}" ]; then
  # The binary against an encoding/json typed decode in its own binary:
  # median wall-time ratio and peak RSS per input size (bench/ratio).
  go run ./bench/ratio -n 10000,100000,1000000 -runs 3
fi
rm -f "$out"
