#!/bin/sh
# format.sh [--check] — formats the files of the upstream change with
# River Review's pinned prettier (3.8.3, its package-lock at c36106a9) and
# the settings of its .prettierrc.json, given here as flags. PRETTIER names
# a prettier binary; without it, that version is installed with npm into a
# temporary directory.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
mode=--write
if [ "${1:-}" = --check ]; then mode=--check; fi
if [ -z "${PRETTIER:-}" ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	npm install --prefix "$tmp" --no-audit --no-fund --loglevel=error prettier@3.8.3 >&2
	PRETTIER=$tmp/node_modules/.bin/prettier
fi
cd "$here"
"$PRETTIER" --no-config "$mode" --semi --single-quote --trailing-comma es5 --print-width 100 \
	--tab-width 2 --prose-wrap preserve gc.mjs cli-gc.test.mjs insert.mjs river-gc.md river-gc.en.md
