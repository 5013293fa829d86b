#!/usr/bin/env bash
# Installs a pinned river-gc release for this runner and verifies it: the
# archive's SHA-256 must match its line in the release's SHA256SUMS, or
# nothing is installed and the step fails. Used by the repository's
# action.yml; tested by install_test.go against a local release.
#
# Environment:
#   RIVER_GC_VERSION   the release tag, e.g. v1.2.3 (required)
#   RIVER_GC_BASE_URL  where releases live; <base>/<tag>/<file> is fetched
#                      (default: the project's GitHub releases)
#   RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP   set by GitHub Actions
#   GITHUB_PATH, GITHUB_OUTPUT            set by GitHub Actions (optional)
set -euo pipefail

fail() {
  echo "::error title=river-gc install::$*" >&2
  exit 1
}

version=${RIVER_GC_VERSION:-}
base=${RIVER_GC_BASE_URL:-https://github.com/plangate-gc/plangate-gc/releases/download}
[ -n "$version" ] || fail "no version: pin one (with: version: v1.2.3) or use the action at a release tag"
case "$version" in
  v[0-9]*) ;;
  *) fail "version '$version' is not a release tag (vX.Y.Z)" ;;
esac

case "${RUNNER_OS:-$(uname -s)}" in
  Linux | linux) os=linux ;;
  *) fail "river-gc runs on Linux only; this runner is ${RUNNER_OS:-$(uname -s)}" ;;
esac
case "${RUNNER_ARCH:-$(uname -m)}" in
  X64 | x86_64 | amd64) arch=amd64 ;;
  ARM64 | aarch64 | arm64) arch=arm64 ;;
  *) fail "no river-gc release for architecture ${RUNNER_ARCH:-$(uname -m)}" ;;
esac

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

mkdir "$work/x"
tar -xzf "$work/$archive" -C "$work/x" river-gc || fail "$archive holds no river-gc"
dest="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/river-gc-$version"
mkdir -p "$dest"
install -m 0755 "$work/x/river-gc" "$dest/river-gc"
echo "river-gc $version ($os/$arch, sha256 $got) installed in $dest"
if [ -n "${GITHUB_PATH:-}" ]; then
  echo "$dest" >> "$GITHUB_PATH"
fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  echo "path=$dest/river-gc" >> "$GITHUB_OUTPUT"
fi
