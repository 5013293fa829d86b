//go:build linux

package report

import (
	"bufio"
	"strconv"
	"strings"

	"github.com/plangate-gc/plangate-gc/internal/rivergc/gc"
)

// interruptedLists are the lists of an Interrupted with their catalog
// keys: what killed runs deleted, then what they rewrote.
func interruptedLists(in *gc.Interrupted) []struct {
	key   string
	paths []string
} {
	key, temps := "gc-interrupted", "gc-interrupted-temps"
	if in.Finished {
		key = "gc-interrupted-finished"
	}
	if in.TempsRemoved {
		temps = "gc-interrupted-temps-removed"
	}
	return []struct {
		key   string
		paths []string
	}{{key, in.Removed}, {"gc-interrupted-rewritten", in.Rewritten}, {temps, in.Temps}}
}

// writeInterrupted words, in the human summary, what --force runs that
// left no record did (SPEC B4): one heading per list and the paths, cut
// like the removals (Options.shown) with a count of the rest.
func writeInterrupted(b *bufio.Writer, p printer, in *gc.Interrupted, opt Options) {
	if in == nil {
		return
	}
	for _, l := range interruptedLists(in) {
		if len(l.paths) == 0 && l.key != interruptedLists(in)[0].key {
			continue
		}
		b.WriteString(p.Sprintf(l.key, Display(strings.Join(in.Journals, ", ")), strconv.Itoa(len(l.paths))) + "\n")
		shown := opt.shown(len(l.paths))
		for _, path := range l.paths[:shown] {
			b.WriteString("  " + Display(path) + "\n")
		}
		if shown < len(l.paths) {
			b.WriteString("  " + p.Sprintf("gc-more", strconv.Itoa(len(l.paths)-shown)) + "\n")
		}
	}
}
