// Package cli holds the upstream-ready change that adds `river gc` to River
// Review's own CLI (src/cli.mjs): gc.mjs (upstream's src/commands/gc.mjs),
// its node:test file, a ja/en guide page, and apply.sh, which copies them
// into a River Review checkout and wires gc.mjs in with three anchored
// insertions (insert.mjs). Its tests apply the change to a copy of the
// upstream snapshot, install the npm packages offline and compare
// `river gc` with river-gc itself.
package cli
