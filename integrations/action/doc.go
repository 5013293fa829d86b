// Package action holds the install and run scripts of the repository's
// GitHub Action (action.yml at the root) and their tests: install.sh
// fetches a pinned river-gc release for the runner and refuses it unless
// its SHA-256 matches the release's SHA256SUMS; run.sh maps the action's
// inputs to river-gc's flags. The tests run both against a local release
// served on loopback, and lint example.yml, a workflow that uses the
// action, with the pinned actionlint.
package action
