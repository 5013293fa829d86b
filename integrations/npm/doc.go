// Package npm holds the npm packages of river-gc in the esbuild style: a
// shim package @plangate-gc/river-gc (bin river-gc) whose optional
// dependencies @plangate-gc/river-gc-linux-x64 and -linux-arm64 carry the
// release binaries, built by build.sh from the release archives and
// verified against their SHA256SUMS. Its tests build such a release, pack
// the packages and install them offline.
package npm
