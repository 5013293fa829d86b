#!/bin/sh
# Builds the snapshot release twice from a fresh clone of HEAD and fails
# unless both runs give the same archives, byte for byte (SHA256SUMS and
# every archive compared with cmp). A clone, because GoReleaser takes the
# commit date (every file time in the archives) from git and gives up on
# git information in a checkout without a remote. `task
# release-reproducible` runs it; two full GoReleaser runs are too slow for
# CI, which runs `goreleaser check`.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone --quiet "$repo" "$work/src"
cd "$work/src"
snapshot() {
  go tool -modfile=internal/tools/go.mod goreleaser release --snapshot --clean --skip=publish >"$work/log" 2>&1 ||
    { cat "$work/log" >&2; exit 1; }
}
snapshot
mkdir "$work/first"
cp dist/SHA256SUMS dist/*.tar.gz dist/*.zip "$work/first/"
snapshot
cmp "$work/first/SHA256SUMS" dist/SHA256SUMS
for f in "$work/first"/*.tar.gz "$work/first"/*.zip; do
  cmp "$f" "dist/$(basename "$f")"
done
echo "reproducible: $(wc -l < dist/SHA256SUMS) archives byte-identical across two runs of $(git rev-parse --short HEAD)"
cat dist/SHA256SUMS
if [ "$(uname -s)/$(uname -m)" = Linux/x86_64 ]; then
  dist/river-gc_linux_amd64_v1/river-gc --version
fi
