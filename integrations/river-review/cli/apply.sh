#!/bin/sh
# apply.sh RIVER_REVIEW_DIR — adds `river gc` to a River Review checkout
# (made against c36106a9): src/commands/gc.mjs, tests/cli-gc.test.mjs,
# pages/guides/river-gc{,.en}.md, and three insertions into src/cli.mjs
# (insert.mjs). Re-running it refreshes the files and changes nothing else.
# In a git checkout, `git add -A && git diff --cached` afterwards is the
# upstream change.
set -eu
if [ $# -ne 1 ]; then
	echo "usage: apply.sh <river-review checkout>" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
up=$1
if [ ! -f "$up/src/cli.mjs" ] || [ ! -f "$up/package.json" ]; then
	echo "apply.sh: $up is not a River Review checkout (no src/cli.mjs or package.json)" >&2
	exit 1
fi
node "$here/insert.mjs" "$up/src/cli.mjs"
mkdir -p "$up/src/commands" "$up/tests" "$up/pages/guides"
cp "$here/gc.mjs" "$up/src/commands/gc.mjs"
cp "$here/cli-gc.test.mjs" "$up/tests/cli-gc.test.mjs"
cp "$here/river-gc.md" "$up/pages/guides/river-gc.md"
cp "$here/river-gc.en.md" "$up/pages/guides/river-gc.en.md"
