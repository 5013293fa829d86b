#!/bin/sh
# build.sh DIST_DIR OUT_DIR — builds the npm packages of river-gc from the
# release archives in DIST_DIR (GoReleaser's dist/: the river-gc archives
# and SHA256SUMS) and writes their `npm pack` tarballs into OUT_DIR:
#
#   @plangate-gc/river-gc              the shim (bin river-gc), optionalDependencies:
#   @plangate-gc/river-gc-linux-x64    bin/river-gc from the linux_amd64 archive
#   @plangate-gc/river-gc-linux-arm64  bin/river-gc from the linux_arm64 archive
#
# Every archive is checked against SHA256SUMS first; the sha256 of the binary
# taken from it is recorded in the shim (lib/checksums.json) and in the
# platform package (package.json "riverGc"), and the shim checks it before
# every run. The version is the archives' (VERSION overrides it). Nothing
# is fetched; npm is used only to pack.
set -eu

# The release's file names, in one place (.goreleaser.yaml: archives
# river-gc_{{ .Version }}_{{ .Os }}_{{ .Arch }}.tar.gz, checksum SHA256SUMS).
SUMS=SHA256SUMS
archive_name() { printf 'river-gc_%s_linux_%s.tar.gz' "$1" "$2"; } # version, GOARCH
ARCHIVE_GLOB='river-gc_*_linux_amd64.tar.gz'
MEMBER=river-gc # the binary inside an archive, in its top directory (the archive's name)
PLATFORMS='amd64:x64 arm64:arm64' # GOARCH:npm cpu
SCOPE=@plangate-gc

die() {
	echo "build.sh: $*" >&2
	exit 1
}

[ $# -eq 2 ] || { echo "usage: build.sh <dist-dir> <out-dir>" >&2; exit 2; }
dist=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$dist/$SUMS" ] || die "$dist/$SUMS not found"

if [ -z "${VERSION:-}" ]; then
	set -- "$dist"/$ARCHIVE_GLOB
	[ $# -eq 1 ] && [ -f "$1" ] || die "expected exactly one $ARCHIVE_GLOB in $dist (or set VERSION)"
	VERSION=$(basename "$1")
	VERSION=${VERSION#river-gc_}
	VERSION=${VERSION%_linux_amd64.tar.gz}
fi
printf '%s\n' "$VERSION" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$' ||
	die "version $VERSION is not a semantic version"

mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

shim=$work/river-gc
mkdir -p "$shim"
cp -R "$here/river-gc/bin" "$here/river-gc/lib" "$here/river-gc/README.md" "$shim/"
cp "$here/../../LICENSE" "$shim/LICENSE"

table=
optional=
for p in $PLATFORMS; do
	goarch=${p%%:*}
	cpu=${p#*:}
	name=$(archive_name "$VERSION" "$goarch")
	[ -f "$dist/$name" ] || die "$dist/$name not found"
	want=$(awk -v n="$name" '{ f = $2; sub(/^\*/, "", f); if (f == n) print $1 }' "$dist/$SUMS")
	[ "$(printf '%s\n' "$want" | grep -c .)" -eq 1 ] || die "$SUMS lists $name $(printf '%s\n' "$want" | grep -c .) times, not once"
	got=$(sha256sum "$dist/$name" | cut -d' ' -f1)
	[ "$got" = "$want" ] || die "$name has sha256 $got, $SUMS says $want"

	pkg=$SCOPE/river-gc-linux-$cpu
	dir=$work/linux-$cpu
	mkdir -p "$dir/bin" "$work/x-$cpu"
	member=${name%.tar.gz}/$MEMBER
	tar -xzf "$dist/$name" -C "$work/x-$cpu" "$member" || die "$name holds no $member"
	[ -f "$work/x-$cpu/$member" ] && [ ! -L "$work/x-$cpu/$member" ] || die "$member in $name is not a regular file"
	cp "$work/x-$cpu/$member" "$dir/bin/river-gc"
	chmod 755 "$dir/bin/river-gc"
	sum=$(sha256sum "$dir/bin/river-gc" | cut -d' ' -f1)
	cp "$here/../../LICENSE" "$dir/LICENSE"
	cat >"$dir/README.md" <<-README
	# $pkg

	The river-gc $VERSION binary for Linux $cpu, from the release archive
	\`$name\`. Install \`$SCOPE/river-gc\`, not this package: it chooses
	the right platform package and checks the binary's sha256 before running it.
	README
	cat >"$dir/package.json" <<-JSON
	{
	  "name": "$pkg",
	  "version": "$VERSION",
	  "description": "The river-gc binary for Linux $cpu (install $SCOPE/river-gc)",
	  "license": "MIT",
	  "repository": { "type": "git", "url": "https://github.com/plangate-gc/plangate-gc.git" },
	  "os": ["linux"],
	  "cpu": ["$cpu"],
	  "files": ["bin/river-gc"],
	  "preferUnplugged": true,
	  "riverGc": { "archive": "$name", "archiveSha256": "$got", "sha256": "$sum" }
	}
	JSON
	table="$table${table:+,
}    \"linux-$cpu\": { \"package\": \"$pkg\", \"archive\": \"$name\", \"archiveSha256\": \"$got\", \"sha256\": \"$sum\" }"
	optional="$optional${optional:+,
}    \"$pkg\": \"$VERSION\""
done

cat >"$shim/lib/checksums.json" <<JSON
{
  "version": "$VERSION",
  "binaries": {
$table
  }
}
JSON
cat >"$shim/package.json" <<JSON
{
  "name": "$SCOPE/river-gc",
  "version": "$VERSION",
  "description": "river gc: deterministic, race-safe garbage collection of River Review artifacts",
  "license": "MIT",
  "repository": { "type": "git", "url": "https://github.com/plangate-gc/plangate-gc.git" },
  "main": "lib/index.js",
  "bin": { "river-gc": "bin/river-gc.js" },
  "files": ["bin/river-gc.js", "lib/index.js", "lib/checksums.json"],
  "engines": { "node": ">=18" },
  "optionalDependencies": {
$optional
  }
}
JSON

for dir in "$shim" "$work"/linux-*; do
	(cd "$dir" && npm pack --silent --pack-destination "$out" >/dev/null) || die "npm pack $dir failed"
done
ls "$out"
