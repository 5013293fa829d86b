#!/usr/bin/env bash
# Installs river-gc for this runner. At a release tag (vX.Y.Z) it
# downloads that release and verifies it: the archive's SHA-256 must match
# its line in the release's SHA256SUMS, or nothing is installed and the
# step fails. At anything else (a branch, a commit, a local `uses: ./`)
# there is no release to download: it builds river-gc from the action's
# own checkout with the runner's Go and says so in a notice, or takes that
# build from the Actions cache when action.yml's cache step restored it
# (RIVER_GC_CACHE_HIT) and it is the build of this ref. `install.sh key`
# only computes the cache key (step outputs key and dir; none at a release
# tag). Used by the repository's action.yml; tested by install_test.go (a
# local release) and commit_test.go (the action's steps at a commit).
#
# Environment:
#   RIVER_GC_VERSION   the release tag, e.g. v1.2.3; a branch, a commit or
#                      empty builds from the checkout
#   RIVER_GC_BASE_URL  where releases live; <base>/<tag>/<file> is fetched
#                      (default: the project's GitHub releases)
#   RIVER_GC_CACHE_KEY, RIVER_GC_CACHE_HIT  the key step's key, and whether
#                      the cache step restored that key's build
#   RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP   set by GitHub Actions
#   GITHUB_PATH, GITHUB_OUTPUT            set by GitHub Actions (optional)
set -euo pipefail

fail() {
  echo "::error title=river-gc install::$*" >&2
  exit 1
}

version=${RIVER_GC_VERSION:-}
base=${RIVER_GC_BASE_URL:-https://github.com/plangate-gc/plangate-gc/releases/download}

case "${RUNNER_OS:-$(uname -s)}" in
  Linux | linux) os=linux ;;
  *) fail "river-gc runs on Linux only; this runner is ${RUNNER_OS:-$(uname -s)}" ;;
esac
case "${RUNNER_ARCH:-$(uname -m)}" in
  X64 | x86_64 | amd64) arch=amd64 ;;
  ARM64 | aarch64 | arm64) arch=arm64 ;;
  *) fail "no river-gc release for architecture ${RUNNER_ARCH:-$(uname -m)}" ;;
esac

publish() { # dir: puts river-gc on PATH and in the step's outputs
  if [ -n "${GITHUB_PATH:-}" ]; then
    echo "$1" >> "$GITHUB_PATH"
  fi
  if [ -n "${GITHUB_OUTPUT:-}" ]; then
    echo "path=$1/river-gc" >> "$GITHUB_OUTPUT"
  fi
}

# cache_key writes the Actions cache key of a source build and the
# directory it is built into to the step's outputs: one key per ref, the
# digest of every file the build can read (so a branch that moved gets a
# new key), runner OS and arch, and the Go that builds it. Without Go
# there is no key: the install step then fails naming the fix.
cache_key() {
  command -v go > /dev/null && [ -f "$src/go.mod" ] || return 0
  local gover digest key
  gover=$(cd "$src" && go env GOVERSION) || return 0
  digest=$(cd "$src" && find . \( -name .git -o -name testdata -o -path ./bin \) -prune -o -type f ! -name '*_test.go' -print0 |
    LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
  key="river-gc-build-$os-$arch-$gover-$(printf '%s' "$ref" | tr -c 'A-Za-z0-9._-' '-')-$digest"
  echo "river-gc's build cache key: $key"
  if [ -n "${GITHUB_OUTPUT:-}" ]; then
    {
      echo "key=$key"
      echo "dir=$dest"
    } >> "$GITHUB_OUTPUT"
  fi
}

# Not a release tag: build from the checkout this script is part of, or
# take that build from the Actions cache.
if ! [[ "$version" =~ ^v[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]*)?$ ]]; then
  src=$(cd "$(dirname "$0")/../.." && pwd)
  ref=${version:-$(git -C "$src" rev-parse HEAD 2> /dev/null || echo local)}
  case "$ref" in [0-9a-f]*) [ ${#ref} -eq 40 ] && ref=${ref:0:12} ;; esac
  dest="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/river-gc-build"
  if [ "${1:-}" = key ]; then
    cache_key
    exit 0
  fi
  [ -f "$src/go.mod" ] && [ -d "$src/cmd/river-gc" ] || fail "no release tag and no source to build river-gc from in $src"
  if [ "${RIVER_GC_CACHE_HIT:-}" = true ] && [ -x "$dest/river-gc" ] && [ -f "$dest/river-gc" ] &&
    [ "$("$dest/river-gc" --version 2> /dev/null)" = "river-gc devel $ref" ]; then
    echo "::notice title=river-gc from the cache::no release at '${version:-this checkout}': river-gc built earlier from the action's own checkout came from the Actions cache (key ${RIVER_GC_CACHE_KEY:-}), not built again, and runs as $("$dest/river-gc" --version)"
    publish "$dest"
    exit 0
  fi
  command -v go > /dev/null ||
    fail "'${version:-this checkout}' is not a release tag, so river-gc is built from source, and Go is not on PATH: add actions/setup-go (go-version-file: go.mod) before this step"
  mkdir -p "$dest"
  rm -f "$dest/river-gc" # a restored build of something else: go build would not overwrite it
  (cd "$src" && CGO_ENABLED=0 go build -trimpath -o "$dest/river-gc" \
    -ldflags "-X 'github.com/plangate-gc/plangate-gc/internal/version.Version=devel $ref'" ./cmd/river-gc) ||
    fail "go build ./cmd/river-gc failed in $src"
  cached="not cached (no cache key)"
  if [ -n "${RIVER_GC_CACHE_KEY:-}" ]; then
    cached="saved to the Actions cache as ${RIVER_GC_CACHE_KEY}, so the next run at this ref restores it instead of building"
    [ -n "${GITHUB_OUTPUT:-}" ] && echo "built=true" >> "$GITHUB_OUTPUT"
  fi
  echo "::notice title=river-gc built from source::no release at '${version:-this checkout}': river-gc was built from the action's own checkout ($src, $(go env GOVERSION)), $cached, and runs as $("$dest/river-gc" --version)"
  publish "$dest"
  exit 0
fi
[ "${1:-}" = key ] && exit 0 # a release: nothing to cache

archive="river-gc_${version#v}_${os}_${arch}.tar.gz"
work=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/river-gc-install.XXXXXX")
trap 'rm -rf "$work"' EXIT

fetch() {
  curl --fail --silent --show-error --location --retry 3 --proto '=https,http,file' -o "$work/$2" "$1" ||
    fail "cannot download $1"
}
fetch "$base/$version/SHA256SUMS" SHA256SUMS
fetch "$base/$version/$archive" "$archive"

# The one line naming exactly this archive: "<64 hex>  <name>".
want=$(awk -v name="$archive" '$2 == name || $2 == "*" name { print $1 }' "$work/SHA256SUMS")
[ -n "$want" ] || fail "SHA256SUMS of $version has no line for $archive"
[ "$(printf '%s\n' "$want" | wc -l)" -eq 1 ] || fail "SHA256SUMS of $version names $archive more than once"
got=$(sha256sum "$work/$archive" | awk '{ print $1 }')
[ "$got" = "$want" ] || fail "checksum mismatch for $archive: SHA256SUMS says $want, the download is $got; nothing installed"

# The archive's files are in a top directory named like it.
member="${archive%.tar.gz}/river-gc"
mkdir "$work/x"
tar -xzf "$work/$archive" -C "$work/x" "$member" || fail "$archive holds no $member"
[ -f "$work/x/$member" ] && [ ! -L "$work/x/$member" ] || fail "$member in $archive is not a regular file"
dest="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/river-gc-$version"
mkdir -p "$dest"
install -m 0755 "$work/x/$member" "$dest/river-gc"
echo "river-gc $version ($os/$arch, sha256 $got) installed in $dest"
publish "$dest"
