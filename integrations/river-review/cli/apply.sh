#!/bin/sh
# apply.sh RIVER_REVIEW_DIR — adds `river gc` to both `river` CLIs of a
# River Review checkout (made against c36106a9): gc.mjs as
# src/commands/gc.mjs and runners/cli/src/commands/gc.mjs,
# tests/cli-gc.test.mjs, pages/guides/river-gc{,.en}.md, and the anchored
# changes of insert.mjs to src/cli.mjs, runners/cli/src/index.mjs and
# sidebars.js (the guide's entry; skipped, and said so, when the checkout
# has no sidebars.js). Re-running it refreshes the files and changes
# nothing else. It prints one line per change: what it added, replaced or
# wrote, and what was already there.
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
put() { # source, path in the checkout
	if [ ! -e "$up/$2" ]; then
		what="wrote (new)"
	elif cmp -s "$here/$1" "$up/$2"; then
		what="unchanged"
	else
		what="wrote (updated)"
	fi
	cp "$here/$1" "$up/$2"
	echo "$2: $what"
}
put gc.mjs src/commands/gc.mjs
put gc.mjs runners/cli/src/commands/gc.mjs
put cli-gc.test.mjs tests/cli-gc.test.mjs
put river-gc.md pages/guides/river-gc.md
put river-gc.en.md pages/guides/river-gc.en.md
