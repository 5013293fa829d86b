#!/bin/sh
# walk.sh REPO: runs the README's quick start exactly as written, as a new
# user would: a fresh clone of REPO's HEAD in a temporary folder, then
# every command of the README's "## Quick start" section (the ```sh
# blocks, in order, in one shell, stopping at the first that fails).
# Exit 0 when all of them succeed.
set -eu
repo=$(cd "${1:?usage: walk.sh REPO}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/plangate-gc-walk.XXXXXX")
trap 'rm -rf "$work"' EXIT
git clone --quiet --no-hardlinks "$repo" "$work/clone"
cd "$work/clone"
awk '
	/^## / { inside = ($0 == "## Quick start") ; next }
	inside && /^```sh$/ { code = 1; next }
	inside && code && /^```$/ { code = 0; next }
	inside && code { print }
' README.md > "$work/quickstart.sh"
if [ ! -s "$work/quickstart.sh" ]; then
	echo "walk: README.md has no \`\`\`sh block under \"## Quick start\"" >&2
	exit 1
fi
echo "walk: running the README's quick start in a fresh clone ($(wc -l < "$work/quickstart.sh") commands)"
sh -eux "$work/quickstart.sh"
echo "walk: the quick start ran as written"
