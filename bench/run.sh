#!/usr/bin/env bash
# Benchmarks with in-run baselines. Machines are noisy: every benchmark
# runs COUNT times and we report medians, and the skill is reported as a
# ratio to encoding/json decoding the same bytes, measured in the same run.
#
#   bash bench/run.sh            # 10k and 100k entries/files
#   FULL=1 bash bench/run.sh     # also 300k and 1M
#   RIVER_SRC=/work/main bash bench/run.sh   # river-gc built from that checkout
#   ONLY=river bash bench/run.sh             # only the binaries' rows (ratio, rivergc)
#
# Rows (every one a ratio to a floor measured in the same run, medians):
#   in-process: BenchmarkJudge ÷ BenchmarkBaselineDecode (encoding/json),
#   per shape of internal/synth (compact, fixture; each also shuffled);
#   bench/ratio: plangate-gc --json ÷ bench/baseline, peak RSS ÷ input;
#   bench/rivergc: river-gc dry-run ÷ find -printf | sort, peak RSS per
#   file; river-gc --force ÷ find -delete (100k files, fresh copies);
#   hostile excludes (absolute time) plus gitignore BenchmarkHostile.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-5}
sizes='entries=(10000|100000)$'
[ -n "${FULL:-}" ] && sizes='entries=(10000|100000|1000000)$'
runs=${RUNS:-3}
n='10000,100000'
[ -n "${FULL:-}" ] && n='10000,100000,300000,1000000'
river_src=${RIVER_SRC:-.}
echo "# $(date -u +%FT%TZ) $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -sr), load: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "${FULL:-}" ]; then
  # about one inode per file, twice for the --force copies
  need=$((1000000 + 300000 + 2 * 100000))
  free=$(df --output=iavail /tmp | tail -1)
  [ "$free" -lt "$need" ] && { echo "only $free inodes free in /tmp, need $need: dropping 1M" >&2; n='10000,100000,300000'; }
fi
if [ "${ONLY:-}" != river ]; then
out=$(mktemp)
go test ./internal/pipeline -run '^$' -bench "^Benchmark(Judge|BaselineDecode)$/./^${sizes}" \
  -benchtime 3x -count "$count" | tee "$out" >&2
go test ./gate ./internal/gitignore -run '^$' -bench . -count "$count" | tee -a "$out" >&2

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
  printf "\n| shape/entries | skill ÷ encoding/json decode (median ns/op ratio) |\n|---|---|\n"
  for (n in names) if (n ~ /^BenchmarkJudge\//) {
    b = n; sub(/^BenchmarkJudge/, "BenchmarkBaselineDecode", b); e = n; sub(/^BenchmarkJudge\//, "", e)
    if (b in names) printf "| %s | %.2f |\n", e, median(ns[n]) / median(ns[b])
  }
}' "$out"

rm -f "$out"
fi

# The binary against an encoding/json typed decode in its own binary:
# median wall-time ratio and peak RSS per input size (bench/ratio).
echo; echo "## plangate-gc --json ÷ encoding/json typed decode (bench/ratio, median of $runs)"
go run ./bench/ratio -n "$n" -runs "$runs"
# river-gc against find(1) on generated River Review trees (bench/rivergc).
echo; echo "## river-gc ÷ find (bench/rivergc, median of $runs)"
go run ./bench/rivergc -src "$river_src" -n "$n" -force 100000 -hostile 1000,10000,100000 -runs "$runs"
# The exclude matcher alone on the hostile document (no command line).
echo; echo "## gitignore BenchmarkHostile (Compile + 100 paths × 30 segments; one op = the whole document)"
go test ./internal/gitignore -run '^$' -bench 'Hostile/copies' -benchtime 3x -count "$runs" | grep '^Benchmark' 
