// Package release holds the tests of the release configuration
// (.goreleaser.yaml) and its scripts: what a release archive holds and
// which version its binary reports. It has no code of its own.
package release
