#!/bin/sh
# Writes the shell completion scripts of both binaries into completions/
# (gitignored), for the release archives: GoReleaser runs this before it
# builds. The scripts come from the commands themselves (`completion
# SHELL`), which generate them from the parser's model.
set -eu
cd "$(dirname "$0")/../.."
rm -rf completions
mkdir -p completions
for cmd in river-gc plangate-gc; do
  for shell in bash zsh fish; do
    go run "./cmd/$cmd" completion "$shell" > "completions/$cmd.$shell"
  done
done
