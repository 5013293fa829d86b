#!/bin/sh
# apply.sh RIVER_REVIEW_DIR — adds `river gc` to both `river` CLIs of a
# River Review checkout (made against c36106a9): gc.mjs as
# src/commands/gc.mjs and runners/cli/src/commands/gc.mjs,
# tests/cli-gc.test.mjs, pages/guides/river-gc{,.en}.md, and the anchored
# changes of insert.mjs to src/cli.mjs and runners/cli/src/index.mjs.
# Re-running it refreshes the files and changes nothing else.
# In a git checkout, `git add -A && git diff --cached` afterwards is the
# upstream change.
set -eu
if [ $# -ne 1 ]; then
	echo "usage: apply.sh <river-review checkout>" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
up=$1
for f in package.json src/cli.mjs runners/cli/src/index.mjs; do
	if [ ! -f "$up/$f" ]; then
		echo "apply.sh: $up is not a River Review checkout (no $f)" >&2
		exit 1
	fi
done
node "$here/insert.mjs" "$up"
mkdir -p "$up/src/commands" "$up/runners/cli/src/commands" "$up/tests" "$up/pages/guides"
cp "$here/gc.mjs" "$up/src/commands/gc.mjs"
cp "$here/gc.mjs" "$up/runners/cli/src/commands/gc.mjs"
cp "$here/cli-gc.test.mjs" "$up/tests/cli-gc.test.mjs"
cp "$here/river-gc.md" "$up/pages/guides/river-gc.md"
cp "$here/river-gc.en.md" "$up/pages/guides/river-gc.en.md"
